"""The socmon CLI of an older commit, for the bench scripts that compare against one
(esp_speedup.py, esp_noc_speed.py): built once in its own git worktree, build-rev-REV/ next to the
source tree (.gitignore keeps it out), then reused."""
import os
import subprocess


def build_rev(src, rev):
    """The socmon CLI of commit rev of the tree at src, built in its own worktree and build directory."""
    short = subprocess.run(["git", "-C", src, "rev-parse", "--short", rev], capture_output=True, text=True,
                           check=True).stdout.strip()
    wt = os.path.join(src, "build-rev-" + short)
    binary = os.path.join(wt, "build", "socmon")
    if os.path.exists(binary):
        return binary
    if not os.path.isdir(wt):
        subprocess.run(["git", "-C", src, "worktree", "add", "--detach", wt, short], check=True,
                       stdout=subprocess.DEVNULL)
    print("building socmon at %s in %s (once) ..." % (short, wt), flush=True)
    subprocess.run(["cmake", "-S", wt, "-B", os.path.join(wt, "build"), "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                    "-DSOCMON_TESTS=OFF", "-DSOCMON_WEB=OFF"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", os.path.join(wt, "build"), "-j", "2", "--target", "socmon_cli"], check=True,
                   stdout=subprocess.DEVNULL)
    return binary
