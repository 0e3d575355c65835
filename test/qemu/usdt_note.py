# SPDX-License-Identifier: MIT
# Writes a copy of a program's ELF file with one USDT note changed, for test_usdt.sh's refusals:
# the note of probe NAME (its stapsdt descriptor: pc, base, semaphore, then the strings) gets
# its pc moved by N bytes ("pc+N": no longer a site), its semaphore set to its pc ("sem=pc":
# an address in the text, no variable), or its pc or semaphore set to an address ("pc=0xA",
# "sem=0xA": another of the program's things, test_usdt_perm.sh). ELF32 and ELF64 notes alike
# (4- or 8-byte addresses).
#   usdt_note.py SRC DST NAME pc+N|sem=pc|pc=ADDR|sem=ADDR
import struct
import subprocess
import sys

src, dst, name, edit = sys.argv[1:5]
data = bytearray(open(src, "rb").read())
off = size = None
for line in subprocess.run(["readelf", "-SW", src], capture_output=True, text=True).stdout.splitlines():
    f = line.replace("[ ", "[").split()
    if len(f) > 5 and f[1] == ".note.stapsdt":
        off, size = int(f[4], 16), int(f[5], 16)
if off is None:
    sys.exit("usdt_note.py: %s has no .note.stapsdt" % src)
w, wf = (8, "<Q") if data[4] == 2 else (4, "<I")
found = False
pos = off
while pos < off + size:
    namesz, descsz, _ = struct.unpack_from("<III", data, pos)
    desc = pos + 12 + ((namesz + 3) & ~3)
    if bytes(data[desc + 3 * w:desc + descsz]).split(b"\0")[1] == name.encode():
        pc = struct.unpack_from(wf, data, desc)[0]
        if edit.startswith("pc+"):
            struct.pack_into(wf, data, desc, pc + int(edit[3:]))
        elif edit == "sem=pc":
            struct.pack_into(wf, data, desc + 2 * w, pc)
        elif edit.startswith("pc="):
            struct.pack_into(wf, data, desc, int(edit[3:], 0))
        elif edit.startswith("sem="):
            struct.pack_into(wf, data, desc + 2 * w, int(edit[4:], 0))
        else:
            sys.exit("usdt_note.py: no edit %s" % edit)
        found = True
    pos = desc + ((descsz + 3) & ~3)
if not found:
    sys.exit("usdt_note.py: no note of %s in %s" % (name, src))
open(dst, "wb").write(data)
