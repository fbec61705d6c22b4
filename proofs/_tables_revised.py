"""Tables 1 and 2 of the revised supplement (section D), transcribed once for the claims that read them.

Table 1 lists the widths d_x of the trained networks, one column per depth; a row holds networks of
about the same size, and '-' marks no network.  Table 2 lists the architectures rerun three times.
"""

DEPTHS = (6, 12, 18, 24, 30, 36, 48)

_TABLE1 = """
128 88 - 64 - - 44
168 120 - 88 - - 60
216 152 - 104 - - 72
220 156 - - - - -
224 160 - 112 - - 80
248 176 - 128 - - 88
272 192 - 136 - - 96
296 208 - 144 - - 104
320 224 184 160 144 128 112
376 264 216 184 168 152 128
- 272 244 - - - -
408 288 232 200 176 160 144
- 296 240 - - - -
- 304 248 - - - -
- 314 256 - - - -
456 320 264 224 200 184 160
496 352 288 248 224 200 176
568 400 320 280 248 232 200
680 480 384 336 304 272 240
- - 398 344 - - -
- - 406 352 - - -
- - 416 360 - - -
- - 424 368 - - -
- - 440 376 - - -
816 576 472 408 368 336 288
960 680 560 480 432 392 336
1088 768 624 544 484 440 384
- - - 584 520 - -
1416 1000 - 704 632 576 496
- - - - 808 736 -
2128 1504 - 1064 952 872 752
2832 2000 - 1416 - 1160 1000
"""

#: Table 1 as rows of (depth -> width or None).
TABLE1_ROWS = [dict(zip(DEPTHS, (None if cell == "-" else int(cell) for cell in line.split()), strict=False))
               for line in _TABLE1.strip().splitlines()]

#: Table 1 as the set of trained (depth, width) pairs.
TABLE1 = sorted({(depth, width) for row in TABLE1_ROWS for depth, width in row.items() if width is not None})

#: Table 2: the architectures rerun three times, by depth.
TABLE2 = {6: (320, 680, 800), 12: (224, 400, 680, 1000), 24: (160, 280, 480, 704)}

#: Section D's text: heads per layer and vocabulary size.
HEADS = 2
VOCABULARY = 2000


def non_embedding_parameters(depth: int, width: int) -> int:
    """12 L d_x^2: per layer 4 d_x^2 attention and 8 d_x^2 feed-forward weights (d_ff = 4 d_x), biases and
    layer norms neglected (the usual count of Kaplan et al. 2020)."""
    return 12 * depth * width**2


def parameters_with_embedding(depth: int, width: int) -> int:
    """12 L d_x^2 + V d_x with the vocabulary embedding (V = 2000) counted too."""
    return non_embedding_parameters(depth, width) + VOCABULARY * width
