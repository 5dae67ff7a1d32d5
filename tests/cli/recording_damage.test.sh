#!/bin/sh
# report on a v2 recording edited after the fact (issue 23, item 12 and the end record check): a
# block whose timestamps go back before the block before it (a crafted file, or one an older
# writer took) is flagged on stderr and in --stats, and no interval wraps to 18446744073709551466
# ns; an end record whose block count or last timestamp disagrees with the blocks is named as
# damage, both figures given. The edits keep every CRC valid, so only these checks can see them.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

# --realtime with a 50 ms flush: a block every 50 ms of the 300 ms run, so at least 3 blocks.
R=$TMP/z.rec
"$BIN" record -q -t zynq --realtime -I 1ms -d 300ms --flush 50ms -o "$R" >/dev/null 2>&1 && ok || bad "record"

cat >"$TMP/patch.py" <<'PY'
import struct, sys, zlib
src, dst, what = sys.argv[1:4]
b = bytearray(open(src, "rb").read())
pos, blocks = 16 + struct.unpack_from("<I", b, 12)[0] + 4, []   # after the header and its CRC
while b[pos:pos + 8] == b"\x89SMBLK\r\n":
    blocks.append(pos)
    pos += 44 + struct.unpack_from("<I", b, pos + 28)[0]
while b[pos:pos + 8] == b"\x89SMATT\r\n":   # attachments (a Zynq run's params) before the end
    n = struct.unpack_from("<I", b, pos + 8)[0]
    pos += 8 + 4 + n + 16 + struct.unpack_from("<I", b, pos + 12 + n + 4)[0]
end = pos
assert b[end:end + 8] == b"\x89SMEND\r\n" and len(blocks) >= 3, (len(blocks), b[end:end + 8])
if what == "back":   # block 2 starts 1 us after block 1's first sample: before block 1's last
    at = blocks[2]
    struct.pack_into("<Q", b, at + 16, struct.unpack_from("<Q", b, blocks[1] + 16)[0] + 1000)
    struct.pack_into("<I", b, at + 40, zlib.crc32(bytes(b[at:at + 40])))
    print(struct.unpack_from("<Q", b, at + 8)[0], struct.unpack_from("<Q", b, at + 16)[0])   # its row and time
elif what == "end_blocks":
    struct.pack_into("<Q", b, end + 24, struct.unpack_from("<Q", b, end + 24)[0] + 1)
    print(len(blocks))
elif what == "end_t":
    struct.pack_into("<Q", b, end + 16, struct.unpack_from("<Q", b, end + 16)[0] + 5)
struct.pack_into("<I", b, end + 32, zlib.crc32(bytes(b[end:end + 32])))
open(dst, "wb").write(b)
PY

# The file as written: no note, complete.
"$BIN" report -i "$R" >/dev/null 2>"$TMP/err" && [ ! -s "$TMP/err" ] && ok || bad "the unedited file: $(cat "$TMP/err")"

# Timestamps that go backwards.
set -- $(python3 "$TMP/patch.py" "$R" "$TMP/back.rec" back)
row=$1 t=$2
expect 0 "back.rec: damaged: 1 sample stamped before the sample before it (the first: sample $row at $t ns, after [0-9]* ns); such an interval is shown 0 ns long, with no rates" \
    -- "$BIN" report -i "$TMP/back.rec"
"$BIN" report -i "$TMP/back.rec" -x, 2>/dev/null >"$TMP/back.csv" && ok || bad "report -x, of back.rec"
"$BIN" report -i "$TMP/back.rec" --json 2>/dev/null >"$TMP/back.json" && ok || bad "report --json of back.rec"
"$BIN" report -i "$TMP/back.rec" --summary --json 2>/dev/null >"$TMP/sum.json" && ok || bad "report --summary of back.rec"
"$BIN" report -i "$TMP/back.rec" --stats --json >"$TMP/stats.json" && ok || bad "report --stats of back.rec"
python3 - "$TMP/back.csv" "$TMP/back.json" "$TMP/sum.json" "$TMP/stats.json" "$row" <<'PY' && ok || bad "intervals of back.rec"
import csv, json, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
js = json.load(open(sys.argv[2]))["intervals"]
row = int(sys.argv[5])
for name, r in (("CSV", rows), ("JSON", js)):
    iv = [int(x["interval_ns"]) for x in r]
    assert max(iv) <= 10**9, (name, max(iv))          # never a wrapped interval
    assert iv[row - 1] == 0, (name, iv[row - 2:row + 1])  # interval row k ends at sample k + 1
    assert iv.count(0) == 1, (name, iv.count(0))
el = json.load(open(sys.argv[3]))["elapsed_ns"]
assert 0 < el <= 10**9, el
st = json.load(open(sys.argv[4]))
assert not st["complete"] and "1 timestamp goes backwards (first: sample %d at" % row in st["lost"], st
PY

# The end record against the blocks.
n=$(python3 "$TMP/patch.py" "$R" "$TMP/blocks.rec" end_blocks)
expect 0 "blocks.rec: damaged: the end record disagrees with the blocks: it says $((n + 1)) blocks, the file holds $n; the rows are the blocks'" \
    -- "$BIN" report -i "$TMP/blocks.rec"
python3 "$TMP/patch.py" "$R" "$TMP/t.rec" end_t
expect 0 "t.rec: damaged: the end record disagrees with the blocks: it says the last sample at [0-9]*5 ns, the last block's is at [0-9]*0 ns" \
    -- "$BIN" report -i "$TMP/t.rec"
for f in blocks t; do
    "$BIN" report -i "$TMP/$f.rec" --stats --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert not j["complete"] and "the end record disagrees with the blocks" in j["lost"], j' && ok || bad "--stats of $f.rec"
done
finish "recording_damage"
