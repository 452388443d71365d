DP: int
A: int
B: int
C: int
D: int
E: int
F: int
G: int
FONT: dict[str, int]

def glyph(ch: str) -> int: ...
def encode(text: str, width: int) -> list[int]: ...
def decode(cell: int) -> str: ...
