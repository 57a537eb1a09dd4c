"""Draws TeX formulas for the chat with matplotlib's mathtext, as SVG paths.

This runs in a container of its own, started by the app (MathRenderer), never in a
conversation's kernel: the model's code cannot reach it. It reads one JSON request per line,
    {"id": 7, "tex": "\\frac{a}{b}"}
and answers each with one JSON line, in order:
    {"id": 7, "svg": "<svg ...>", "width": 12.1, "ascent": 9.8, "descent": 3.4}
(sizes in points for a 10 pt font; the path is black, the app colours it), or
    {"id": 7, "error": "Expected \\frac{num}{den}"}.
Standard library and matplotlib only.
"""

import json
import os
import re
import shutil
import sys

FONT_SIZE = 10.0
MAX_TEX_CHARS = 4000
# What models write that mathtext spells differently (or does not need).
_ALIASES = {
    "le": r"\leq", "ge": r"\geq", "tfrac": r"\frac", "lVert": r"\Vert", "rVert": r"\Vert",
    "implies": r"\Longrightarrow", "iff": r"\Longleftrightarrow", "bmod": r"\ \mathrm{mod}\ ",
    "displaystyle": "", "textstyle": "",
}
_ALIAS = re.compile(r"\\(%s)(?![A-Za-z])" % "|".join(_ALIASES))
_PMOD = re.compile(r"\\pmod\{([^{}]*)\}")
# The image's prebuilt font cache; matplotlib wants it writable.
IMAGE_MPL_CONFIG = "/usr/share/sandpiper/matplotlib"


def _prepare_matplotlib():
    config = os.path.join(os.environ.get("TMPDIR") or "/tmp", "sandpiper-math-mpl")
    if not os.path.isdir(config):
        if os.path.isdir(IMAGE_MPL_CONFIG):
            shutil.copytree(IMAGE_MPL_CONFIG, config)
        else:
            os.makedirs(config, exist_ok=True)
    os.environ["MPLCONFIGDIR"] = config
    os.environ["MPLBACKEND"] = "Agg"


_prepare_matplotlib()

from matplotlib.font_manager import FontProperties  # noqa: E402
from matplotlib.mathtext import MathTextParser  # noqa: E402
from matplotlib.path import Path  # noqa: E402
from matplotlib.textpath import TextToPath  # noqa: E402

_PROPERTIES = FontProperties(size=FONT_SIZE)
_PARSER = MathTextParser("path")
_TEXT_TO_PATH = TextToPath()


def _number(value):
    return ("%.2f" % value).rstrip("0").rstrip(".")


def _svg_path(vertices, codes):
    # Points with y up, from the baseline; SVG wants y down, so y is negated.
    commands = []
    for points, code in Path(vertices, codes).iter_segments():
        coordinates = " ".join(_number(v if i % 2 == 0 else -v) for i, v in enumerate(points))
        if code == Path.MOVETO:
            commands.append("M" + coordinates)
        elif code == Path.LINETO:
            commands.append("L" + coordinates)
        elif code == Path.CURVE3:
            commands.append("Q" + coordinates)
        elif code == Path.CURVE4:
            commands.append("C" + coordinates)
        elif code == Path.CLOSEPOLY:
            commands.append("Z")
    return " ".join(commands)


def render(tex):
    if len(tex) > MAX_TEX_CHARS:
        raise ValueError("the formula is longer than %d characters" % MAX_TEX_CHARS)
    # mathtext has no line breaks: a display formula written over several lines is one line.
    tex = _PMOD.sub(lambda m: r"\ (\mathrm{mod}\ %s)" % m.group(1), " ".join(tex.split()))
    source = "$" + _ALIAS.sub(lambda m: _ALIASES[m.group(1)], tex) + "$"
    layout = _PARSER.parse(source, 72, _PROPERTIES)
    vertices, codes = _TEXT_TO_PATH.get_text_path(_PROPERTIES, source, ismath=True)
    # The glyphs come drawn at FONT_SCALE points; some reach past the layout's box (italics).
    scale = FONT_SIZE / _TEXT_TO_PATH.FONT_SCALE
    points = [(x * scale, y * scale) for x, y in vertices]
    xs = [x for x, _ in points] or [0.0]
    ys = [y for _, y in points] or [0.0]
    left = min(0.0, min(xs))
    width = max(float(layout.width), max(xs)) - left
    descent = max(float(layout.depth), -min(ys))
    ascent = max(float(layout.height) - float(layout.depth), max(ys))
    path = _svg_path(points, codes) if len(codes) else ""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="%s %s %s %s" width="%s" height="%s">'
           '<path fill="#000" d="%s"/></svg>') % (
        _number(left), _number(-ascent), _number(width), _number(ascent + descent),
        _number(width), _number(ascent + descent), path)
    return {"svg": svg, "width": width, "ascent": ascent, "descent": descent}


def _error_text(error):
    # pyparsing's message spans lines (the formula, a caret, the reason): the reason is enough.
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    reason = lines[-1] if lines else type(error).__name__
    return reason.split("Exception: ", 1)[-1][:500]


def main():
    for line in sys.stdin:
        try:
            request = json.loads(line)
            ident = request["id"]
            tex = request["tex"]
            if not isinstance(tex, str):
                raise ValueError("no formula")
        except (ValueError, KeyError, TypeError):
            continue
        try:
            answer = render(tex)
        except Exception as error:  # mathtext raises ValueError, but a formula must never end us
            answer = {"error": _error_text(error)}
        answer["id"] = ident
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
