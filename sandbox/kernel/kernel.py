"""Sandpiper sandbox kernel: runs the model's Python inside the container.

Usage: python3 kernel.py [--data DIR]   (or python3 -c "<this source>" [--data DIR])

Requests arrive as JSON lines on stdin; events leave as JSON lines on the original
stdout. User code gets fds 0/1/2 of its own (/dev/null and two pipes), so nothing it
or its subprocesses do can corrupt the protocol.

  -> {"id", "op": "execute", "code", "timeout"?, "output_limit"?, "max_figures"?}
  -> {"id", "op": "preload", "modules": [...]}
  -> {"op": "shutdown"}                      (EOF on stdin does the same)
  <- {"event": "ready", "python", "pid"}
  <- {"id", "event": "stream", "name": "stdout"|"stderr", "text"}
  <- {"id", "event": "display", "mime": "image/png", "path": "figures/..."}
  <- {"id", "event": "display", "mime": "text/html", "data"}
  <- {"id", "event": "result", "status": "ok"|"error"|"interrupted", "value", "error",
      "duration_ms", "files", "dropped": {"stdout", "stderr"}, "figures_dropped", "reason"?}

The host trusts none of it: user code runs in this interpreter and can write any line here.
"""
import ast
import builtins
import codecs
import fcntl
import io
import json
import linecache
import math
import os
import select
import signal
import struct
import sys
import termios
import threading
import time
import types

DEFAULT_DATA_DIR = "/mnt/data"
DEFAULT_OUTPUT_LIMIT = 1 << 20  # bytes per stream per execution
BATCH_BYTES = 64 * 1024
BATCH_SECONDS = 0.05
READ_CHUNK = 64 * 1024
TRICKLE_PAUSE = 0.01
MAX_SNAPSHOT_ENTRIES = 5000
FIGURE_DPI = 110
FIGURE_PAD_INCHES = 0.1  # what bbox_inches="tight" pads with
MAX_FIGURE_SIDE = 8000  # pixels either way; the host shows nothing larger
DEFAULT_MAX_FIGURES = 20  # saved and shown per execution; the rest are only counted
FIGURES = "figures"
CELL_PREFIX = "<cell-"
PNG_MODES = ("1", "L", "LA", "I", "I;16", "P", "RGB", "RGBA")  # PIL modes PNG can store
BACKEND_MODULE = "_sandpiper_mpl_backend"
COMPILE_FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
CO_COROUTINE = 0x80  # inspect.CO_COROUTINE, without importing inspect at startup
INPUT_MESSAGE = ("input() is not supported in the sandbox: there is no user at "
                 "the keyboard; pass data in code instead")


class ExecutionTimeout(KeyboardInterrupt):
    """Raised in user code when the request's timeout expires.

    A KeyboardInterrupt so that `except Exception` in user code does not swallow it.
    """


class ProtocolError(Exception):
    pass


def _no_input(prompt=""):
    # EOFError: scripts that already handle a closed stdin keep working.
    raise EOFError(INPUT_MESSAGE)


def _is_number(value):
    # Integral floats count too: JSON writers such as Qt's emit every number as a double.
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def _pipe_pending(fd):
    """Number of bytes waiting in a pipe."""
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def _open_text(fd, mode):
    # Line buffered so output interleaves with subprocesses and streams while a cell runs.
    return open(fd, mode, buffering=1, encoding="utf-8", errors="backslashreplace",
                closefd=False)


def _private_dir(name):
    """A writable directory under the temp dir, reused across kernel restarts (caches)."""
    path = os.path.join(os.environ.get("TMPDIR") or "/tmp", "sandpiper-%s-%d" % (name, os.getuid()))
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        if os.stat(path).st_uid == os.getuid() and os.access(path, os.W_OK):
            return path
    except OSError:
        pass
    import tempfile
    return tempfile.mkdtemp(prefix="sandpiper-%s-" % name)


def _is_instance(value, module, name):
    """isinstance() against a class of a module only if that module is already loaded."""
    cls = getattr(sys.modules.get(module), name, None)
    return isinstance(cls, type) and isinstance(value, cls)


def _ends_with_semicolon(source, lines, body):
    """True when the cell's last real token is ';', which hides the last value as in IPython."""
    import tokenize  # only needed when a cell ends in an expression

    if len(body) > 1:
        # Tokenize from the end of the previous statement: cheap on huge cells, and the
        # text still holds the whole last statement including its enclosing parentheses.
        prev = body[-2]
        line = lines[prev.end_lineno - 1].encode("utf-8")
        text = (line[prev.end_col_offset:].decode("utf-8", "replace")
                + "".join(lines[prev.end_lineno:]))
    else:
        text = source
    ignored = (tokenize.COMMENT, tokenize.NEWLINE, tokenize.NL, tokenize.INDENT,
               tokenize.DEDENT, tokenize.ENDMARKER)
    last = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type not in ignored:
                last = token.string
    except (tokenize.TokenError, SyntaxError):
        return False
    return last == ";"


def _png_size(data):
    """(width, height) from a PNG's header; (0, 0) when DATA is no PNG (the host refuses it)."""
    if isinstance(data, bytes) and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    return 0, 0


def _null_byte_error(source, filename):
    offset = source.index("\0")
    lineno = source.count("\n", 0, offset) + 1
    line_start = source.rfind("\n", 0, offset) + 1
    line_end = source.find("\n", offset)
    text = source[line_start:] if line_end < 0 else source[line_start:line_end]
    return SyntaxError("source code cannot contain null bytes",
                       (filename, lineno, offset - line_start + 1, text.replace("\0", "\\0")))


def _user_traceback(tb, main):
    """Keep only the frames worth showing the user.

    For the raised exception everything up to the first cell frame is the kernel's
    machinery (or asyncio's); kernel helpers (displayhook, show) called from user code
    are dropped anywhere. Frames of the kernel are recognised by their globals, which
    works whatever the kernel's file name is (a path, or "<string>" under -c).
    """
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    if main:
        first = next((i for i, t in enumerate(frames)
                      if t.tb_frame.f_code.co_filename.startswith(CELL_PREFIX)), len(frames))
        frames = frames[first:]
    kept = [t for t in frames if t.tb_frame.f_globals is not globals()]
    for t, nxt in zip(kept, kept[1:] + [None]):
        t.tb_next = nxt
    return kept[0] if kept else None


def _format_error(exc, message=None):
    import traceback

    seen = set()
    pending = [(exc, True)]
    while pending:
        e, main = pending.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        e.__traceback__ = _user_traceback(e.__traceback__, main)
        pending += [(e.__cause__, False), (e.__context__, False)]
    if message is None:
        try:
            message = str(exc)
        except Exception:
            message = "<unprintable %s>" % type(exc).__name__
    return {"type": type(exc).__name__, "message": message,
            "traceback": "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))}


def _format_compile_error(exc, lines):
    import traceback

    message = str(exc)
    if isinstance(exc, SyntaxError):
        # Errors raised by the compiler (not the parser) come without the source line.
        if exc.text is None and exc.lineno and exc.lineno <= len(lines):
            exc.text = lines[exc.lineno - 1]
        message = exc.msg if not exc.lineno else "%s (line %d)" % (exc.msg, exc.lineno)
    return {"type": type(exc).__name__, "message": message,
            "traceback": "".join(traceback.format_exception_only(type(exc), exc))}


class OutputPump(threading.Thread):
    """Owns the pipe behind fd 1 or 2 and turns what is written there into stream events."""

    def __init__(self, kernel, name, fd):
        super().__init__(name="pump-" + name, daemon=True)
        self.kernel = kernel
        self.stream = name
        self.fd = fd
        self._read_fd, self._write_fd = os.pipe()
        os.set_blocking(self._read_fd, False)
        self._wake_r, self._wake_w = os.pipe()
        self._lock = threading.Lock()
        self._waiters = []
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._chunks = []
        self._batch_bytes = 0
        self._deadline = 0.0
        self.limit = DEFAULT_OUTPUT_LIMIT
        self.sent = 0
        self.dropped = 0
        self.reconnect()

    def reconnect(self):
        """Point the fd (back) at the pipe: user code may have closed or redirected it."""
        os.dup2(self._write_fd, self.fd)

    def reset(self, limit):
        with self._lock:
            self.limit, self.sent, self.dropped = limit, 0, 0

    def request_sync(self):
        """Return an event set once everything written to the fd so far has been emitted."""
        done = threading.Event()
        with self._lock:
            self._waiters.append(done)
        os.write(self._wake_w, b"s")
        return done

    def run(self):
        # Leave SIGINT/SIGALRM to the main thread, so they interrupt its blocking calls.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGALRM})
        while True:
            try:
                self._step()
            except Exception as exc:  # a dead pump would hang every later sync
                self.kernel.log("output pump %s: %r" % (self.stream, exc))

    def _step(self):
        timeout = max(0.0, self._deadline - time.monotonic()) if self._chunks else None
        ready = select.select([self._read_fd, self._wake_r], [], [], timeout)[0]
        if self._read_fd in ready:
            if self._read(READ_CHUNK) < READ_CHUNK // 4:
                # A trickle of small writes (print in a loop): pause so they pile up instead
                # of fighting the writer for the GIL on every line. A sync still wakes us.
                select.select([self._wake_r], [], [], TRICKLE_PAUSE)
        if self._wake_r in ready:
            # Read the wake bytes before taking the waiters, so no waiter is left behind.
            os.read(self._wake_r, 4096)
            with self._lock:
                waiters, self._waiters = self._waiters, []
            # Whatever was written before the sync request is in the pipe now; reading
            # exactly that much keeps a chatty background writer from stalling the sync.
            self._read(_pipe_pending(self._read_fd))
            self._flush()
            for done in waiters:
                done.set()
        if self._chunks and (self._batch_bytes >= BATCH_BYTES
                             or time.monotonic() >= self._deadline):
            self._flush()

    def _read(self, budget):
        """Read up to budget bytes that are already in the pipe; return how many were read."""
        total = 0
        while total < budget:
            try:
                data = os.read(self._read_fd, min(budget - total, READ_CHUNK))
            except BlockingIOError:
                break
            if not data:
                break
            total += len(data)
            self._consume(data)
        return total

    def _consume(self, data):
        with self._lock:
            keep = max(0, min(len(data), self.limit - self.sent))
            self.sent += keep
            self.dropped += len(data) - keep
        if not keep:
            return  # over the limit: count and drop without decoding, so floods stay cheap
        text = self._decoder.decode(data[:keep])
        if text:
            if not self._chunks:
                self._deadline = time.monotonic() + BATCH_SECONDS
            self._chunks.append(text)
            self._batch_bytes += keep
            if self._batch_bytes >= BATCH_BYTES:
                self._flush()

    def _flush(self):
        if self._chunks:
            text = "".join(self._chunks)
            self._chunks, self._batch_bytes = [], 0
            self.kernel.emit({"id": self.kernel.current_id, "event": "stream",
                              "name": self.stream, "text": text})


class BackendFinder:
    """Import hook for the in-memory matplotlib backend named in MPLBACKEND.

    It only runs when matplotlib itself loads the backend, so the kernel never imports
    matplotlib. The backend is Agg plus a show() that displays and closes all figures.
    """

    def __init__(self, show):
        self._show = show

    def find_spec(self, name, path=None, target=None):
        if name != BACKEND_MODULE:
            return None
        import importlib.machinery
        return importlib.machinery.ModuleSpec(name, self)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        module.FigureCanvas = FigureCanvasAgg
        module.show = self._show


class Kernel:
    def __init__(self, data_dir):
        self.data_dir = os.path.abspath(data_dir)
        self.current_id = None
        self._pid = os.getpid()
        self._emit_lock = threading.Lock()
        self._count = 0
        self._figure_token = os.urandom(4).hex()
        self._figure_count = 0
        self._max_figures = DEFAULT_MAX_FIGURES
        self._figures_kept = 0
        self._figures_dropped = 0
        self._value = None
        self._output_limit = DEFAULT_OUTPUT_LIMIT
        self._running = False
        self._shielded = False
        self._pending_signal = None
        self._timeout = None
        self._loop = None

        # Private copies of the real stdio for the protocol and diagnostics; user code
        # and its subprocesses get /dev/null as stdin so they cannot eat requests.
        self._proto_fd = os.dup(1)
        self._diag_fd = os.dup(2)
        self._requests = os.fdopen(os.dup(0), "rb")
        self._devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(self._devnull, 0)
        self._pumps = [OutputPump(self, "stdout", 1), OutputPump(self, "stderr", 2)]
        for pump in self._pumps:
            pump.start()
        self._stdin = open(0, "r", encoding="utf-8", closefd=False)
        self._stdout = _open_text(1, "w")
        self._stderr = _open_text(2, "w")

        self._main = types.ModuleType("__main__")
        self._main.__builtins__ = builtins
        self.namespace = self._main.__dict__
        # Pickle and friends look classes up in sys.modules["__main__"].
        sys.modules["__main__"] = self._main
        sys.meta_path.append(BackendFinder(self._show_figures))
        self._restore_process_state()

        try:
            os.makedirs(self.data_dir, exist_ok=True)
            os.chdir(self.data_dir)  # relative paths in user code land in the shared folder
        except OSError as exc:
            self.log("data dir %s: %s" % (self.data_dir, exc))

    # ----- protocol -------------------------------------------------------------

    def log(self, message):
        os.write(self._diag_fd, ("sandpiper kernel: %s\n" % message).encode("utf-8", "replace"))

    def emit(self, event):
        data = (json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n")
        view = memoryview(data.encode("utf-8", "replace"))  # lone surrogates become '?'
        with self._emit_lock:
            try:
                while view:
                    view = view[os.write(self._proto_fd, view):]
            except BrokenPipeError:
                os._exit(0)  # the host is gone: nobody is left to report to

    def serve(self):
        self.emit({"event": "ready", "python": "%d.%d.%d" % sys.version_info[:3],
                   "pid": os.getpid()})
        while True:
            line = self._requests.readline()
            if not line:
                self._shutdown()
            if line.strip():
                self._handle(line)

    def _handle(self, line):
        rid = None
        try:
            try:
                request = json.loads(line)
            except (ValueError, RecursionError) as exc:
                raise ProtocolError("invalid JSON request: %s" % exc)
            if not isinstance(request, dict):
                raise ProtocolError("a request must be a JSON object")
            rid = request.get("id")
            op = request.get("op")
            if op == "execute":
                self._execute(rid, request)
            elif op == "preload":
                self._preload(rid, request)
            elif op == "shutdown":
                self._shutdown()
            else:
                raise ProtocolError("unknown op: %r" % (op,))
        except ProtocolError as exc:
            self.emit({"id": rid, "event": "result", "status": "error", "value": None,
                       "error": {"type": "ProtocolError", "message": str(exc), "traceback": ""},
                       "duration_ms": 0, "files": [], "dropped": {"stdout": 0, "stderr": 0},
                       "figures_dropped": 0})

    def _shutdown(self):
        self._restore_process_state()
        self._sync_output()
        # os._exit: non-daemon threads started by user code must not keep us alive.
        os._exit(0)

    # ----- requests -------------------------------------------------------------

    def _execute(self, rid, request):
        code = request.get("code")
        if not isinstance(code, str):
            raise ProtocolError("execute needs a string 'code'")
        timeout = request.get("timeout")
        if timeout is not None and not (_is_number(timeout) and timeout > 0):
            raise ProtocolError("timeout must be a positive number of seconds")
        limit = request.get("output_limit", DEFAULT_OUTPUT_LIMIT)
        if not (_is_number(limit) and limit >= 0):
            raise ProtocolError("output_limit must be a non-negative number of bytes")
        max_figures = request.get("max_figures", DEFAULT_MAX_FIGURES)
        if not (_is_number(max_figures) and max_figures >= 0):
            raise ProtocolError("max_figures must be a non-negative number")
        started, before = self._begin(rid, int(limit), int(max_figures))
        status, error, reason = self._run_cell(code, timeout)
        if os.getpid() != self._pid:
            os._exit(0)  # a child forked by user code must not carry on as a second kernel
        self._finish(rid, started, before, status, error, reason)

    def _preload(self, rid, request):
        modules = request.get("modules")
        if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
            raise ProtocolError("preload needs 'modules', a list of module names")
        import importlib

        started, before = self._begin(rid, DEFAULT_OUTPUT_LIMIT)
        imported, failed = [], []
        for name in modules:
            try:
                importlib.import_module(name)
                imported.append(name)
            except Exception as exc:  # a broken optional module must not stop the others
                failed.append("%s (%s: %s)" % (name, type(exc).__name__, exc))
        self._value = "imported: %s" % (", ".join(imported) or "nothing")
        if failed:
            self._value += "; failed: " + "; ".join(failed)
        self._finish(rid, started, before, "ok", None, None)

    def _begin(self, rid, limit, max_figures=DEFAULT_MAX_FIGURES):
        self.current_id = rid
        self._value = None
        self._output_limit = limit
        self._max_figures = max_figures
        self._figures_kept = self._figures_dropped = 0
        for pump in self._pumps:
            pump.reset(limit)
        return time.monotonic(), self._snapshot()

    def _finish(self, rid, started, before, status, error, reason):
        self._restore_process_state()
        self._show_figures()
        self._sync_output()
        after = self._snapshot()
        result = {"id": rid, "event": "result", "status": status, "value": self._value,
                  "error": error, "duration_ms": int((time.monotonic() - started) * 1000),
                  "files": sorted(p for p, sig in after.items() if before.get(p) != sig),
                  "dropped": {p.stream: p.dropped for p in self._pumps},
                  "figures_dropped": self._figures_dropped}
        if reason:
            result["reason"] = reason
        self.emit(result)
        self.current_id = None

    # ----- running code ---------------------------------------------------------

    def _run_cell(self, source, timeout):
        """Compile and run one cell; return (status, error, reason)."""
        self._count += 1
        filename = "%s%d>" % (CELL_PREFIX, self._count)
        source = source.replace("\r\n", "\n").replace("\r", "\n")  # as the tokenizer does
        lines = [line + "\n" for line in source.split("\n")]
        # Registered for good: functions defined here may fail in a later cell.
        linecache.cache[filename] = (len(source), None, lines, filename)
        try:
            codes = self._compile(source, lines, filename)
        except Exception as exc:  # SyntaxError, or RecursionError/MemoryError from the compiler
            return "error", _format_compile_error(exc, lines), None
        try:
            try:
                self._arm(timeout)
                for code in codes:
                    self._run_code(code)
            finally:
                self._disarm()
        except ExecutionTimeout as exc:
            return "interrupted", _format_error(exc), "timeout"
        except KeyboardInterrupt as exc:
            return "interrupted", _format_error(exc, "interrupted by SIGINT"), "interrupt"
        except SystemExit as exc:
            # sys.exit() ends the cell, never the kernel; exit status 0 counts as success.
            if exc.code is None or exc.code == 0:
                return "ok", None, None
            return "error", _format_error(exc, str(exc.code)), None
        except BaseException as exc:
            return "error", _format_error(exc), None
        return "ok", None, None

    def _compile(self, source, lines, filename):
        """Compile a cell like IPython's 'last_expr': the last expression is shown."""
        if "\0" in source:
            raise _null_byte_error(source, filename)  # compile() reports this inconsistently
        tree = compile(source, filename, "exec", ast.PyCF_ONLY_AST | COMPILE_FLAGS,
                       dont_inherit=True)
        body = tree.body
        shown = None
        if (body and isinstance(body[-1], ast.Expr)
                and not _ends_with_semicolon(source, lines, body)):
            shown = body.pop()
        codes = []
        if body:
            codes.append(compile(ast.Module(body=body, type_ignores=[]), filename, "exec",
                                 COMPILE_FLAGS, dont_inherit=True))
        if shown is not None:
            # 'single' mode hands the value to sys.displayhook.
            codes.append(compile(ast.Interactive(body=[shown]), filename, "single",
                                 COMPILE_FLAGS, dont_inherit=True))
        return codes

    def _run_code(self, code):
        if not code.co_flags & CO_COROUTINE:
            exec(code, self.namespace)
            return
        import asyncio

        # One loop for the whole session, so tasks and loop-bound objects survive cells.
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self._loop)  # user code may have run asyncio.run() since
        task = self._loop.create_task(eval(code, self.namespace))
        try:
            self._loop.run_until_complete(task)
        finally:
            if not task.done():
                task.cancel()  # interrupted: do not let the cell resume in a later one
            elif not task.cancelled():
                task.exception()  # already raised here; keeps asyncio from logging it again

    def _arm(self, timeout):
        self._timeout = timeout
        self._pending_signal = None
        self._running = True
        if timeout:
            signal.setitimer(signal.ITIMER_REAL, timeout)

    def _disarm(self):
        self._running = False  # first, so a late signal is ignored by _on_signal
        signal.setitimer(signal.ITIMER_REAL, 0)

    def _on_signal(self, signum, frame):
        if not self._running:
            return  # idle or in kernel code: never interrupt the kernel itself
        if signum == signal.SIGALRM:
            # Without a timeout of ours, this is the user's own signal.alarm().
            exc = ExecutionTimeout("execution timed out after %g s" % self._timeout
                                   if self._timeout else "SIGALRM")
        else:
            exc = KeyboardInterrupt()
        if self._shielded:
            self._pending_signal = exc  # raised once the protocol line is complete
            return
        raise exc

    def _restore_process_state(self):
        """Undo what user code may have changed that the kernel relies on."""
        os.dup2(self._devnull, 0)
        for pump in self._pumps:
            pump.reconnect()
        if self._stdin.closed:  # exit() and quit() close sys.stdin
            self._stdin = open(0, "r", encoding="utf-8", closefd=False)
        if self._stdout.closed:
            self._stdout = _open_text(1, "w")
        if self._stderr.closed:
            self._stderr = _open_text(2, "w")
        sys.stdin = sys.__stdin__ = self._stdin
        sys.stdout = sys.__stdout__ = self._stdout
        sys.stderr = sys.__stderr__ = self._stderr
        sys.displayhook = self._displayhook
        builtins.input = _no_input
        signal.signal(signal.SIGINT, self._on_signal)
        signal.signal(signal.SIGALRM, self._on_signal)

    def _sync_output(self):
        """Emit everything printed so far, before the event that follows it."""
        for stream in (sys.stdout, sys.stderr, self._stdout, self._stderr):
            try:
                stream.flush()
            except Exception:  # closed, or replaced by something odd
                pass
        for done in [pump.request_sync() for pump in self._pumps]:
            done.wait()

    # ----- display --------------------------------------------------------------

    def _displayhook(self, value):
        if value is None:
            return
        builtins._ = None  # as sys.__displayhook__ does: repr() must not see the old _
        text = repr(value)
        if len(text) > self._output_limit:
            text = "%s... [%d more characters]" % (text[:self._output_limit],
                                                  len(text) - self._output_limit)
        self._value = text
        builtins._ = value
        self._display_rich(value)

    def _display_rich(self, value):
        kind = type(value)  # look methods up on the type: instance __getattr__ lies
        try:
            if _is_instance(value, "matplotlib.figure", "Figure"):
                pyplot = sys.modules.get("matplotlib.pyplot")
                try:
                    self._save_figure(value, "the figure")
                finally:
                    if pyplot is not None:
                        pyplot.close(value)  # shown now, so not again at the end of the cell
            elif _is_instance(value, "PIL.Image", "Image"):
                if self._room_for_figure() and self._size_fits("the image", *value.size):
                    path, rel = self._image_path()
                    image = value if value.mode in PNG_MODES else value.convert("RGBA")
                    image.save(path, format="PNG")
                    self._display_png(rel)
            elif callable(getattr(kind, "_repr_png_", None)):
                data = value._repr_png_()
                if isinstance(data, tuple):  # IPython allows (data, metadata)
                    data = data[0]
                if (data and self._room_for_figure()
                        and self._size_fits("the image", *_png_size(data))):
                    path, rel = self._image_path()
                    with open(path, "wb") as f:
                        f.write(data)
                    self._display_png(rel)
        except Exception as exc:
            self._display_failed(kind, "image", exc)
        try:
            if callable(getattr(kind, "_repr_html_", None)):
                html = value._repr_html_()
                if isinstance(html, str) and len(html) > self._output_limit:
                    print("could not display %s as HTML: %d characters are more than the %d allowed"
                          % (kind.__name__, len(html), self._output_limit), file=sys.stderr)
                elif isinstance(html, str) and html:
                    self._display(mime="text/html", data=html)
        except Exception as exc:
            self._display_failed(kind, "HTML", exc)

    def _display_failed(self, kind, what, exc):
        print("could not display %s as %s: %s: %s" % (kind.__name__, what, type(exc).__name__, exc),
              file=sys.stderr)

    def _show_figures(self, *args, **kwargs):
        """Display and close every open pyplot figure: plt.show(), and after each cell."""
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None:
            return
        for num in pyplot.get_fignums():
            figure = pyplot.figure(num)
            try:
                self._save_figure(figure, "figure %s" % num)
            except Exception as exc:
                print("could not render figure %s: %s: %s" % (num, type(exc).__name__, exc),
                      file=sys.stderr)
            finally:
                pyplot.close(figure)

    def _room_for_figure(self):
        """Whether this execution may show one more figure; counts those it may not."""
        if self._figures_kept < self._max_figures:
            return True
        self._figures_dropped += 1  # the host tells the model once, not per figure
        return False

    def _size_fits(self, what, width, height):
        """Whether a figure of WIDTH x HEIGHT pixels may be shown; says why not."""
        if width > MAX_FIGURE_SIDE or height > MAX_FIGURE_SIDE:
            print("%s was not shown: it would be %d x %d pixels, more than the %d x %d allowed; "
                  "make it smaller (figsize or dpi)"
                  % (what, width, height, MAX_FIGURE_SIDE, MAX_FIGURE_SIDE), file=sys.stderr)
            return False
        return True

    def _save_figure(self, figure, what):
        if not self._room_for_figure():
            return
        # Sizes are checked before anything is drawn: measuring lays the figure out at its own
        # dpi, and text placed far outside the axes makes the tight box (what is saved) huge.
        width, height = figure.get_size_inches() * max(FIGURE_DPI, figure.dpi)
        if not self._size_fits(what, math.ceil(width), math.ceil(height)):
            return
        box = figure.get_tightbbox()
        if box is not None and box.width > 0 and box.height > 0:
            box = box.padded(FIGURE_PAD_INCHES)
            width, height = box.width * FIGURE_DPI, box.height * FIGURE_DPI
        else:
            box = "tight"
        if self._size_fits(what, math.ceil(width), math.ceil(height)):
            path, rel = self._image_path()
            figure.savefig(path, format="png", dpi=FIGURE_DPI, bbox_inches=box)
            self._display_png(rel)

    def _image_path(self):
        self._figure_count += 1
        rel = "%s/fig-%s-%d.png" % (FIGURES, self._figure_token, self._figure_count)
        os.makedirs(os.path.join(self.data_dir, FIGURES), exist_ok=True)
        return os.path.join(self.data_dir, rel), rel

    def _display_png(self, rel):
        self._figures_kept += 1
        self._display(mime="image/png", path=rel)

    def _display(self, **fields):
        """Emit a display event from the main thread, after the output that preceded it."""
        self._sync_output()
        event = dict({"id": self.current_id, "event": "display"}, **fields)
        self._shielded = True  # an interrupt mid-write would leave half a JSON line
        try:
            self.emit(event)
        finally:
            self._shielded = False
        pending, self._pending_signal = self._pending_signal, None
        if pending is not None:
            raise pending

    # ----- files ----------------------------------------------------------------

    def _snapshot(self):
        """{relative path: (mtime_ns, size)} for files under the data dir, figures/ excluded."""
        state = {}
        dirs = [""]
        while dirs and len(state) < MAX_SNAPSHOT_ENTRIES:
            rel_dir = dirs.pop()
            try:
                with os.scandir(os.path.join(self.data_dir, rel_dir)) as entries:
                    for entry in entries:
                        rel = rel_dir + entry.name
                        if entry.is_dir(follow_symlinks=False):
                            if rel != FIGURES:
                                dirs.append(rel + "/")
                            continue
                        st = entry.stat(follow_symlinks=False)
                        state[rel] = (st.st_mtime_ns, st.st_size)
                        if len(state) >= MAX_SNAPSHOT_ENTRIES:
                            break
            except OSError:
                continue  # vanished or unreadable: not worth failing the cell for
        return state


def _prepare_environment():
    # Force the in-memory Agg backend before user code can import matplotlib.
    os.environ["MPLBACKEND"] = "module://" + BACKEND_MODULE
    config = os.environ.get("MPLCONFIGDIR")
    if not (config and os.path.isdir(config) and os.access(config, os.W_OK)):
        # HOME may be unset or read-only; matplotlib needs somewhere to cache fonts.
        os.environ["MPLCONFIGDIR"] = _private_dir("mpl")


def _parse_args(argv):
    data_dir = DEFAULT_DATA_DIR
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--data" and args:
            data_dir = args.pop(0)
        elif arg.startswith("--data="):
            data_dir = arg[len("--data="):]
        else:
            sys.exit("usage: kernel.py [--data DIR]")
    return data_dir


def main():
    # Under `python3 -c SOURCE --data DIR`, sys.argv is ['-c', '--data', 'DIR'].
    data_dir = _parse_args(sys.argv[1:])
    _prepare_environment()
    kernel = Kernel(data_dir)
    try:
        kernel.serve()
    except BaseException:
        # A kernel bug: fds 1/2 are pipes only the kernel reads, so report on the real stderr.
        import traceback
        kernel.log("crashed:\n" + traceback.format_exc())
        os._exit(1)


if __name__ == "__main__":
    main()
