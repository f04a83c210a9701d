#!/usr/bin/env python3
"""png_ink.py FILE.png: how much of an 8-bit RGB(A) PNG is drawn, and in how
many colours, read with the standard library only (zlib and the PNG filters).
Prints "WIDTH HEIGHT INKED_PERCENT COLOURS", where a pixel is inked when it
is not white (or, with alpha, not transparent)."""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise SystemExit("only 8-bit RGB or RGBA PNGs are read")
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


w, h, bpp, rows = pixels(sys.argv[1])
inked, colours = 0, set()
for line in rows:
    for x in range(w):
        px = line[x * bpp:x * bpp + bpp]
        if (bpp == 4 and px[3] == 0) or px[:3] == b"\xff\xff\xff":
            continue
        inked += 1
        colours.add(px[:3])
print(w, h, round(100.0 * inked / (w * h), 2), len(colours))
