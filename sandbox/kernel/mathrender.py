"""Draws TeX formulas for the chat with matplotlib's mathtext, as SVG paths.

This runs in a container of its own, started by the app (MathRenderer), never in a
conversation's kernel: the model's code cannot reach it. It reads one JSON request per line,
    {"id": 7, "tex": "\\frac{a}{b}"}
and answers each with one JSON line, in order:
    {"id": 7, "svg": "<svg ...>", "width": 12.1, "ascent": 9.8, "descent": 3.4}
(sizes in points for a 10 pt font; the path is black, the app colours it), or
    {"id": 7, "error": "Expected \\frac{num}{den}"}.
Answers come as formulas are done, not always in the order asked: a formula takes mathtext 20 to
40 ms, so workers forked after matplotlib's import draw side by side, one per core, and one that
takes longer than FORMULA_SECONDS is killed and replaced. Standard library and matplotlib only.
"""

import json
import os
import re
import selectors
import shutil
import signal
import sys
import time

FONT_SIZE = 10.0
MAX_TEX_CHARS = 4000
MAX_WORKERS = 4
FORMULA_SECONDS = 8
MAX_REQUEST_BYTES = 64 * 1024
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

import matplotlib  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402
from matplotlib.path import Path  # noqa: E402
from matplotlib.textpath import TextToPath  # noqa: E402

# Computer Modern, as TeX sets it (and the fastest of mathtext's fonts).
matplotlib.rcParams["mathtext.fontset"] = "cm"
_TEXT_TO_PATH = TextToPath()
# Laid out at the size TextToPath draws at, so that its own layout is the one cached here.
_PROPERTIES = FontProperties(size=_TEXT_TO_PATH.FONT_SCALE)


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
    layout = _TEXT_TO_PATH.mathtext_parser.parse(source, _TEXT_TO_PATH.DPI, _PROPERTIES)
    vertices, codes = _TEXT_TO_PATH.get_text_path(_PROPERTIES, source, ismath=True)
    # Drawn at FONT_SCALE points; some glyphs reach past the layout's box (italics).
    scale = FONT_SIZE / _TEXT_TO_PATH.FONT_SCALE
    points = [(x * scale, y * scale) for x, y in vertices]
    xs = [x for x, _ in points] or [0.0]
    ys = [y for _, y in points] or [0.0]
    left = min(0.0, min(xs))
    width = max(layout.width * scale, max(xs)) - left
    descent = max(layout.depth * scale, -min(ys))
    ascent = max((layout.height - layout.depth) * scale, max(ys))
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


def _answer(line):
    """The answer line to a request line, or None for a line that is no request."""
    try:
        request = json.loads(line)
        ident = request["id"]
        tex = request["tex"]
        if not isinstance(tex, str):
            raise ValueError("no formula")
    except (ValueError, KeyError, TypeError):
        return None
    try:
        answer = render(tex)
    except Exception as error:  # mathtext raises ValueError, but a formula must never end us
        answer = {"error": _error_text(error)}
    answer["id"] = ident
    return json.dumps(answer) + "\n"


class _Lines:
    """Whole lines from a file descriptor that select() said is readable."""

    def __init__(self, fd):
        self.fd = fd
        self.pending = b""

    def read(self):
        """The complete lines read now; None at the end of the input."""
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            return None
        self.pending += chunk
        *lines, self.pending = self.pending.split(b"\n")
        if len(self.pending) > MAX_REQUEST_BYTES:
            self.pending = b""  # no request is that long: dropped
        return lines


class _Worker:
    """A forked process that draws one formula at a time."""

    def __init__(self):
        to_worker, self.worker_in = os.pipe()
        self.worker_out, from_worker = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(self.worker_in)
            os.close(self.worker_out)
            _serve(to_worker, from_worker)
            os._exit(0)
        os.close(to_worker)
        os.close(from_worker)
        self.lines = _Lines(self.worker_out)
        self.request = None
        self.started = 0.0

    def send(self, request):
        self.request = request
        self.started = time.monotonic()
        os.write(self.worker_in, request + b"\n")

    def stop(self):
        os.close(self.worker_in)
        os.close(self.worker_out)
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass


def _serve(requests, answers):
    reader = _Lines(requests)
    while True:
        lines = reader.read()
        if lines is None:
            return
        for line in lines:
            answer = _answer(line) or json.dumps({"error": "not a request"}) + "\n"
            data = answer.encode()
            while data:
                data = data[os.write(answers, data):]


def _write(data):
    while data:
        data = data[os.write(1, data):]


def main():
    # Fonts and parser warmed up once, before the fork: every worker starts with them.
    render(r"\frac{a}{b}\sqrt{x}")
    workers = [_Worker() for _ in range(max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0)))))]
    stdin = _Lines(0)
    selector = selectors.DefaultSelector()
    selector.register(0, selectors.EVENT_READ)
    for worker in workers:
        selector.register(worker.worker_out, selectors.EVENT_READ, worker)
    queue = []
    open_input = True

    def replace(worker, error):
        # The formula it was drawing is refused, and a fresh worker takes over.
        try:
            ident = json.loads(worker.request)["id"]
        except (ValueError, KeyError, TypeError):
            ident = None
        _write((json.dumps({"id": ident, "error": error}) + "\n").encode())
        selector.unregister(worker.worker_out)
        worker.stop()
        fresh = _Worker()
        selector.register(fresh.worker_out, selectors.EVENT_READ, fresh)
        workers[workers.index(worker)] = fresh

    while open_input or queue or any(w.request for w in workers):
        for key, _ in selector.select(timeout=0.5):
            worker = key.data
            if worker is None:
                lines = stdin.read()
                if lines is None:
                    open_input = False
                    selector.unregister(0)
                else:
                    queue.extend(line for line in lines if line.strip())
                continue
            lines = worker.lines.read()
            if lines is None:
                replace(worker, "the renderer failed on this formula")
                continue
            for line in lines:
                _write(line + b"\n")
            if lines:
                worker.request = None
        now = time.monotonic()
        for worker in list(workers):
            if worker.request is not None and now - worker.started > FORMULA_SECONDS:
                replace(worker, "the formula took too long to draw")
        for worker in workers:
            if worker.request is None and queue:
                worker.send(queue.pop(0))
    for worker in workers:
        worker.stop()


if __name__ == "__main__":
    main()
