# Reads swift test's output and prints the tests that started and never ended (passed, failed or
# skipped): what a crash or a hang interrupted. Used by Scripts/test.
/^◇ Test "/ { sub(/^◇ Test /, ""); sub(/ started\.$/, ""); open[$0] = 1 }
/^(✔|✘|➜) Test "/ {
    sub(/^(✔|✘|➜) Test /, "")
    sub(/ (with [0-9]+ test cases? )?(passed|failed) after [0-9.]+ seconds( with [0-9]+ issues?.*)?\.$/, "")
    sub(/ skipped(: ".*")?\.?$/, "")
    delete open[$0]
}
END { for (name in open) print "    " name }
