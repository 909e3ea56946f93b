"""Git on a phone: the bar in a repository folder, Changes with each file's diff, History paged by
25, a commit's files and diffs, and Revert asked first, then undone from the trash."""
import os
import subprocess

import pytest

from conftest import run_server, shot, write
from test_gallery import serious_violations
from test_writing import wait_for_health

KINDS = ["phone", "desktop"]


def git(folder, *arguments, date=1_700_000_000):
    environment = {
        "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.com", "GIT_COMMITTER_NAME": "Ada",
        "GIT_COMMITTER_EMAIL": "ada@example.com", "GIT_AUTHOR_DATE": "%d +0000" % date,
        "GIT_COMMITTER_DATE": "%d +0000" % date, "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1",
        "PATH": "/usr/bin:/bin",
    }
    subprocess.run(["git", "-C", folder, *arguments], check=True, env=environment,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make_repositories(root):
    """One repository per viewport, so that each one's revert starts from the same state: 30
    commits, then a modified file, a staged one and an untracked one."""
    for kind in KINDS:
        folder = os.path.join(root, "proj " + kind)
        os.makedirs(folder)
        git(folder, "init", "-q", "-b", "main")
        write(folder, "src/app.js", "const a = 1;\nconst b = 2;\nconsole.log(a + b);\n")
        write(folder, "README.md", "# Project\n")
        for number in range(1, 31):
            write(folder, "log.txt", "entry %d\n" % number)
            git(folder, "add", "-A")
            git(folder, "commit", "-q", "-m", "Commit number %d" % number, date=1_700_000_000 + number * 60)
        write(folder, "src/app.js", "const a = 1;\nconst b = 40;\nconsole.log(a + b);\n")
        write(folder, "README.md", "# Project\n\nNow with a readme.\n")
        git(folder, "add", "README.md")
        write(folder, "new note.txt", "a note nobody committed\n")


@pytest.fixture(scope="module")
def repository_server():
    yield from run_server(make_repositories, ["--no-readonly", "--trash-dir", "WORK/trash"])


def test_changes_diff_history_and_a_revert_undone_from_the_trash(page, repository_server):
    root = os.path.join(repository_server.root, "proj " + page.kind)
    page.goto(repository_server.url("/proj%20" + page.kind + "/src"))
    page.wait_for_selector(".row")
    wait_for_health(page)
    # The bar: branch and state (+1 staged, ~1 changed, ?1 untracked), in a folder below the root.
    page.wait_for_selector("#git-bar:visible")
    assert page.text_content("#git-branch") == "main"
    assert page.text_content("#git-state") == "+1 ~1 ?1"
    box = page.locator("#git-changes-open").bounding_box()
    assert box["height"] >= 44
    shot(page, "git-bar")
    # Changes: three sections, each file a row with its letter.
    page.click("#git-changes-open")
    page.wait_for_selector(".git-section")
    assert page.locator(".git-section h2").all_text_contents() == ["Staged (1)", "Changed (1)", "Untracked (1)"]
    assert serious_violations(page, "#git") == []
    shot(page, "git-changes")
    # A file's diff: numbered lines, the removed and added ones marked.
    page.click("[aria-label='src/app.js, modified: show the diff']")
    page.wait_for_selector(".git-hunk")
    assert page.locator(".git-removed .git-text").all_text_contents() == ["const b = 2;"]
    assert page.locator(".git-added .git-text").all_text_contents() == ["const b = 40;"]
    assert serious_violations(page, "#git") == []
    shot(page, "git-diff")
    # History: 25 commits, then the older ones on request.
    page.click("#git-back")
    page.click("#git-tab-history")
    page.wait_for_selector(".git-commit")
    assert page.locator(".git-commit").count() == 25
    assert page.locator(".git-commit .name").first.text_content() == "Commit number 30"
    shot(page, "git-history")
    page.click(".git-more")
    page.wait_for_function("() => document.querySelectorAll('.git-commit').length === 30")
    assert page.locator(".git-more").count() == 0
    # A commit: its files, and one file's diff in it.
    page.click(".git-commit >> text=Commit number 12")
    page.wait_for_selector(".git-commit-head")
    assert page.text_content(".git-commit-head h2") == "Commit number 12"
    page.click("[aria-label='log.txt, modified: show the diff']")
    page.wait_for_selector(".git-hunk")
    assert page.locator(".git-added .git-text").all_text_contents() == ["entry 12"]
    shot(page, "git-commit-diff")
    page.click("#git-back")
    page.wait_for_selector(".git-commit-head")
    # Revert asks first; Cancel changes nothing.
    page.click("#git-back")
    page.click("#git-tab-changes")
    page.wait_for_selector(".git-section")
    page.click("[aria-label='Revert new note.txt']")
    assert "Move “new note.txt” to the Trash?" in page.text_content("#git-revert-question")
    shot(page, "git-revert-question")
    page.click(".git-confirm >> text=Cancel")
    assert os.path.exists(os.path.join(root, "new note.txt"))
    # Revert: the file goes to the trash; the toast's Undo brings it back.
    page.click("[aria-label='Revert new note.txt']")
    page.click("#git-revert-go")
    page.wait_for_selector("#toast >> text=Reverted new note.txt")
    assert not os.path.exists(os.path.join(root, "new note.txt"))
    page.wait_for_function("() => document.querySelector('#git-state').textContent === '+1 ~1'")
    page.click("#toast button")
    page.wait_for_selector("#toast >> text=Restored new note.txt")
    with open(os.path.join(root, "new note.txt")) as handle:
        assert handle.read() == "a note nobody committed\n"
    # A modified file goes back to the last commit; Undo puts the edit back.
    page.wait_for_selector("[aria-label='Revert src/app.js']")
    page.click("[aria-label='Revert src/app.js']")
    assert "back to the last commit" in page.text_content("#git-revert-question")
    page.click("#git-revert-go")
    page.wait_for_selector("#toast >> text=Reverted src/app.js")
    with open(os.path.join(root, "src/app.js")) as handle:
        assert "const b = 2;" in handle.read()
    page.click("#toast button")
    page.wait_for_selector("#toast >> text=Restored app.js")
    with open(os.path.join(root, "src/app.js")) as handle:
        assert "const b = 40;" in handle.read()
    shot(page, "git-after-undo")
