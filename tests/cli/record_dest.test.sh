#!/bin/sh
# socmon record's output paths (docs/output-paths.md): what it refuses before the run, what
# --force does, PATH.old, a lock held by another recorder, full and read-only destinations.
# Device nodes are copies made with mknod in a temp dir, never the system's.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

D="$TMP/d"
mkdir "$D"
REC="record -q -I 200us"
root=0
[ "$(id -u)" = 0 ] && root=1

# A new file: created, readable, and nothing else left in the directory.
expect 0 "wrote .* samples" -- "$BIN" $REC -o "$D/a.rec"
expect 0 "recording of 'esp'" -- "$BIN" report -i "$D/a.rec"
[ "$(ls -A "$D")" = "a.rec" ] && ok || bad "files left next to a.rec: $(ls -A "$D")"

# An existing recording moves to PATH.old (as perf does); --force overwrites it instead.
cp "$D/a.rec" "$D/first.rec"
expect 0 "moved the existing '$D/a.rec' to '$D/a.rec.old'" -- "$BIN" $REC -o "$D/a.rec"
cmp -s "$D/a.rec.old" "$D/first.rec" && ok || bad "a.rec.old is not the first recording"
expect 0 "recording of 'esp'" -- "$BIN" report -i "$D/a.rec"
printf 'keep me' > "$D/a.rec.old"
out=$("$BIN" $REC --force -o "$D/a.rec" 2>&1) && ok || bad "record --force over a recording: $out"
printf '%s' "$out" | grep -q "moved" && bad "--force moved the file: $out" || ok
[ "$(cat "$D/a.rec.old")" = "keep me" ] && ok || bad "--force touched a.rec.old"
expect 0 "recording of 'esp'" -- "$BIN" report -i "$D/a.rec"

expect 2 "bad --flush '0'" -- "$BIN" $REC --flush 0 -o "$D/z.rec"
expect 2 "bad --flush 'soon'" -- "$BIN" $REC --flush soon -o "$D/z.rec"
[ ! -e "$D/z.rec" ] && ok || bad "a usage error created the file"

# A bad target, workload or metric choice leaves an existing recording where it was.
cp "$D/a.rec" "$D/keep"
for args in "-w nope" "-t nosuch" "-M nothing"; do
    # shellcheck disable=SC2086
    "$BIN" $REC $args -o "$D/a.rec" >/dev/null 2>&1 && bad "record $args succeeded"
done
cmp -s "$D/a.rec" "$D/keep" && [ "$(cat "$D/a.rec.old")" = "keep me" ] && ok || bad "a failed start moved a.rec"
rm -f "$D/keep"

# A directory, a path ending in '/', a missing directory.
expect 1 "'$D' is a directory: give a file name, e.g. '$D/socmon.rec'" -- "$BIN" $REC -o "$D"
expect 1 "'$D' is a directory" -- "$BIN" $REC --force -o "$D"
expect 1 "'$D/x/' names a directory" -- "$BIN" $REC -o "$D/x/"
expect 1 "directory '$D/nodir' of '$D/nodir/x.rec' does not exist" -- "$BIN" $REC -o "$D/nodir/x.rec"
expect 1 "'$D/a.rec' (in '$D/a.rec/x.rec') is not a directory" -- "$BIN" $REC -o "$D/a.rec/x.rec"

# A symlink: refused naming its target; --force writes through it and keeps the link.
ln -s target.rec "$D/link.rec"
expect 1 "'$D/link.rec' is a symbolic link (to 'target.rec'); socmon record never writes through" -- \
    "$BIN" $REC -o "$D/link.rec"
[ ! -e "$D/target.rec" ] && ok || bad "a refused symlink's target was created"
expect 0 "wrote .* samples" -- "$BIN" $REC --force -o "$D/link.rec"
[ -L "$D/link.rec" ] && [ -f "$D/target.rec" ] && ok || bad "--force replaced the symlink"
expect 0 "recording of 'esp'" -- "$BIN" report -i "$D/target.rec"

# A FIFO: refused; with --force and no reader a clear error (never a hang); with a reader,
# the recording goes through it.
mkfifo "$D/fifo"
expect 1 "'$D/fifo' is a FIFO (named pipe); socmon record never writes through" -- "$BIN" $REC -o "$D/fifo"
expect 1 "'$D/fifo' is a FIFO with no reader" -- "$BIN" $REC --force -o "$D/fifo"
cat "$D/fifo" > "$D/from_fifo.rec" &
reader=$!
i=0   # until cat has opened its end: a refused attempt leaves the FIFO as it was
while out=$("$BIN" $REC --force -o "$D/fifo" 2>&1); rc=$?; [ $rc = 1 ] && [ $i -lt 100 ] &&
      printf '%s' "$out" | grep -q "no reader"; do
    sleep 0.05; i=$((i + 1))
done
[ $rc = 0 ] && ok || { bad "record --force into a FIFO with a reader: exit $rc: $out"; kill $reader 2>/dev/null; }
wait $reader
[ -p "$D/fifo" ] && ok || bad "the FIFO was replaced"
expect 0 "recording of 'esp'" -- "$BIN" report -i "$D/from_fifo.rec"

if [ $root = 1 ]; then
    # Device nodes: copies of /dev/null (1,3) and /dev/full (1,7).
    mknod "$D/null" c 1 3 && mknod "$D/full" c 1 7 || bad "mknod failed"
    expect 1 "'$D/null' is a character device; socmon record never writes through or replaces one" -- \
        "$BIN" $REC -o "$D/null"
    expect 0 "wrote .* samples" -- "$BIN" $REC --force -o "$D/null"
    [ -c "$D/null" ] && ok || bad "--force replaced the device node"
    expect 1 "'$D/full' is a character device" -- "$BIN" $REC -o "$D/full"
    expect 1 "writing '$D/full': .*No space left on device" -- "$BIN" $REC --force -o "$D/full"
    [ -c "$D/full" ] && ok || bad "the /dev/full copy was replaced"
fi

# Another recorder holds the file (its flock): a clear error, before the run, and the file untouched.
cp "$D/first.rec" "$D/busy.rec"
# the holder is the process that holds the lock (exec), so killing it releases the lock at once: with
# `flock FILE sleep 30 &`, killing flock left its sleep holding the lock and this test's output open,
# and ctest waited the 30 s out
( flock 9 && exec sleep 30 ) 9>>"$D/busy.rec" &
holder=$!
i=0
until grep -q "FLOCK.*$(stat -c %i "$D/busy.rec") " /proc/locks 2>/dev/null || [ $i -ge 100 ]; do
    sleep 0.05; i=$((i + 1))
done
expect 1 "'$D/busy.rec' is being written by another socmon record (pid [0-9]*)" -- "$BIN" $REC -o "$D/busy.rec"
expect 1 "'$D/busy.rec' is being written by another socmon record" -- "$BIN" $REC --force -o "$D/busy.rec"
kill $holder 2>/dev/null
wait $holder 2>/dev/null
cmp -s "$D/busy.rec" "$D/first.rec" && [ ! -e "$D/busy.rec.old" ] && ok || bad "a busy recording was touched"
# No unique temporary file is ever left behind, even by the refused runs.
left=$(ls -A "$D" | grep '^\.' || true)
[ -z "$left" ] && ok || bad "temporary files left: $left"

# A file size limit (RLIMIT_FSIZE) on a regular file: exit 1 with a clear error (SIGXFSZ is
# ignored, so the write fails with EFBIG), the summary so far, and a file readable up to its
# last whole block. One tile's counters, 20 KiB (sh counts 512-byte blocks): a header and a few blocks.
out=$(ulimit -f 40; "$BIN" record -q -I 10us -d 200ms --flush 1ms -e 'tile0.*' -o "$D/big.rec" 2>&1)
rc=$?
[ $rc = 1 ] && printf '%s' "$out" | grep -q "writing '$D/big.rec': .*File too large" && \
    printf '%s' "$out" | grep -q "wrote [0-9,]* samples" && ok || bad "RLIMIT_FSIZE: exit $rc: $out"
expect 0 "recording of 'esp'" -- "$BIN" report -i "$D/big.rec"

if [ $root = 1 ] && unshare -m true 2>/dev/null; then
    # Too little free space, and a read-only filesystem: refused before the run, naming the figure.
    mkdir "$D/small" "$D/ro"
    out=$(unshare -m sh -c "mount -t tmpfs -o size=1M tmpfs '$D/small' && '$BIN' $REC -o '$D/small/x.rec'" 2>&1)
    rc=$?
    [ $rc = 1 ] && printf '%s' "$out" | grep -q "KiB free on the filesystem of '$D/small': socmon record needs at least 4 MiB" \
        && ok || bad "1 MiB filesystem: exit $rc: $out"
    out=$(unshare -m sh -c "mount -t tmpfs -o ro,size=8M tmpfs '$D/ro' && '$BIN' $REC -o '$D/ro/x.rec'" 2>&1)
    rc=$?
    [ $rc = 1 ] && printf '%s' "$out" | grep -q "directory '$D/ro' is on a read-only filesystem" && ok \
        || bad "read-only filesystem: exit $rc: $out"
fi
if [ $root = 1 ] && setpriv --help 2>&1 | grep -q reuid; then
    # A directory without write permission (0555), as an unprivileged user (root's access()
    # always succeeds). The binary and the temp dir must be reachable for 'nobody'.
    mkdir "$D/rodir"
    chmod 0555 "$D/rodir"
    chmod 0755 "$TMP" "$D"
    out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" $REC -o "$D/rodir/x.rec" 2>&1)
    rc=$?
    [ $rc = 1 ] && printf '%s' "$out" | grep -q "cannot create '$D/rodir/x.rec': directory '$D/rodir' is not writable" \
        && ok || bad "0555 directory as nobody: exit $rc: $out"
fi

# stat -o: a directory or a missing directory is refused before the run; a device node is fine.
expect 1 "stat: '$D' is a directory: give a file name" -- "$BIN" stat -o "$D"
expect 1 "stat: directory '$D/nodir' of '$D/nodir/s.txt' does not exist" -- "$BIN" stat -o "$D/nodir/s.txt"
"$BIN" stat -d 1ms -o /dev/null && ok || bad "stat -o /dev/null failed"

finish "record_dest"
