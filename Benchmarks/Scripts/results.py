"""Keeps Benchmarks/RESULTS.md as one section per benchmark, each replaced by its own script."""
import os
import re

HEADER = """# Benchmark results

Each section is written by the script it names, which runs this project side by side with the
reference tools in the same run; ratios matter more than absolute times (this machine's noise is
±15–25%).
"""


def write_section(path, title, body):
    text = open(path).read() if os.path.exists(path) else HEADER
    start = "<!-- %s: start -->" % title
    end = "<!-- %s: end -->" % title
    section = "%s\n## %s\n\n%s\n%s" % (start, title, body.rstrip(), end)
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: section, text)
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    with open(path, "w") as handle:
        handle.write(text)
