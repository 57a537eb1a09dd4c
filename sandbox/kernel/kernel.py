"""Sandpiper sandbox kernel: runs the model's Python inside the container.

Usage: python3 kernel.py [--data DIR]   (or python3 -c "<this source>" [--data DIR])

Requests arrive as JSON lines on stdin; events leave as JSON lines on the original
stdout. User code gets fds 0/1/2 of its own (/dev/null and two pipes), so nothing it
or its subprocesses do can corrupt the protocol.

  -> {"id", "op": "execute", "code", "timeout"?, "output_limit"?, "max_figures"?, "table_ids"?}
  -> {"id", "op": "preload", "modules": [...]}
  -> {"id", "op": "export_table", "table", "format": "csv"|"xlsx", "path"}   (a table shown earlier)
  -> {"id", "op": "describe", "files": [...], "timeout"?}     (attachments: value is a preview)
  -> {"id", "op": "send_files", "files": [...]}   (a remote engine's host fetches what a run wrote)
  -> {"id", "op": "receive_files", "files": [{"name", "size", "mtime"}], "remove": [...]}
     followed at once by the files' bytes, one after another, SIZE bytes each (uploads)
  -> {"op": "shutdown"}                      (EOF on stdin does the same)
  <- {"event": "ready", "python", "pid"}
  <- {"id", "event": "stream", "name": "stdout"|"stderr", "text"}
  <- {"id", "event": "display", "mime": "image/png", "path": "figures/..."}
  <- {"id", "event": "display", "mime": "text/markdown"|"image/svg+xml", "data"}
  <- {"id", "event": "display", "mime": "application/vnd.sandpiper.table+json", "table":
      {"table_id", "kind", "columns", "dtypes", "index_columns", "rows", "total_rows",
       "total_columns", "exportable"}}
     Displays of the cell's last value (its table, figure, Markdown) carry "of_value": true, so
     that a notebook shows them with the value's text as one result, as Jupyter does.
  <- {"id", "event": "file_data", "data"}    (send_files: a tar stream, base64, in pieces)
  <- {"id", "event": "files_sent"}           (send_files: the stream is whole)
  <- {"id", "event": "files_received", "failed": [...], "errors": [...]}   (receive_files)
  <- {"id", "event": "result", "status": "ok"|"error"|"interrupted", "value", "error",
      "duration_ms", "files", "sizes", "removed", "dropped": {"stdout", "stderr"}, "figures_dropped",
      "reason"?}

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
import re
import select
import signal
import stat
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
FRAME_BYTES = 1 << 20  # of a tar stream sent to the host, per file_data event (before base64)
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
        self._showing_value = False  # displays now are of the cell's last value
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
        self._install_display()
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
        self.emit_line(data.encode("utf-8", "replace"))  # lone surrogates become '?'

    def emit_line(self, line):
        """Write LINE, a whole protocol line in bytes, as emit() would."""
        view = memoryview(line)
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
            elif op == "export_table":
                self._export_table(rid, request)
            elif op == "describe":
                self._describe(rid, request)
            elif op == "send_files":
                self._send_files(rid, request)
            elif op == "receive_files":
                self._receive_files(rid, request)
            elif op == "shutdown":
                self._shutdown()
            else:
                raise ProtocolError("unknown op: %r" % (op,))
        except ProtocolError as exc:
            self.emit({"id": rid, "event": "result", "status": "error", "value": None,
                       "error": {"type": "ProtocolError", "message": str(exc), "traceback": ""},
                       "duration_ms": 0, "files": [], "removed": [], "dropped": {"stdout": 0, "stderr": 0},
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
        # A cell run again (restoring a kernel) gives its tables the names they had, in order, so
        # that the host's "Save as CSV" of them finds them; a name that is none of ours gets a new one.
        table_ids = request.get("table_ids", [])
        if not isinstance(table_ids, list):
            raise ProtocolError("table_ids must be a list")
        started, before = self._begin(rid, int(limit), int(max_figures))
        self._given_table_ids = list(table_ids)
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
        self._given_table_ids = []
        self._figures_kept = self._figures_dropped = 0
        for pump in self._pumps:
            pump.reset(limit)
        return time.monotonic(), self._snapshot()

    def _finish(self, rid, started, before, status, error, reason):
        self._restore_process_state()
        self._show_figures()
        self._sync_output()
        after = self._snapshot()
        changed = sorted(p for p, sig in after.items() if before.get(p) != sig)
        # Removed files, for a host that keeps copies (a remote engine); unknown past the cap.
        complete = max(len(before), len(after)) < MAX_SNAPSHOT_ENTRIES
        result = {"id": rid, "event": "result", "status": status, "value": self._value,
                  "error": error, "duration_ms": int((time.monotonic() - started) * 1000),
                  "files": changed, "sizes": {p: after[p][1] for p in changed},
                  "removed": sorted(p for p in before if p not in after) if complete else [],
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
        source, lines = _without_magics(source, lines, filename)
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
        self._showing_value = True
        try:
            self._display_rich(value)
        finally:
            self._showing_value = False

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
        self._display_formats(value, kind)

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
        self._display_count += 1
        event = dict({"id": self.current_id, "event": "display"}, **fields)
        if self._showing_value:
            event["of_value"] = True
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
        """{relative path: (mtime_ns, size)} for files under the data dir, figures/ and the
        kernel's own .sandpiper/ (packages) excluded."""
        state = {}
        dirs = [""]
        while dirs and len(state) < MAX_SNAPSHOT_ENTRIES:
            rel_dir = dirs.pop()
            try:
                with os.scandir(os.path.join(self.data_dir, rel_dir)) as entries:
                    for entry in entries:
                        rel = rel_dir + entry.name
                        if entry.is_dir(follow_symlinks=False):
                            if rel not in (FIGURES, PRIVATE_DIR):
                                dirs.append(rel + "/")
                            continue
                        st = entry.stat(follow_symlinks=False)
                        state[rel] = (st.st_mtime_ns, st.st_size)
                        if len(state) >= MAX_SNAPSHOT_ENTRIES:
                            break
            except OSError:
                continue  # vanished or unreadable: not worth failing the cell for
        return state

    # A remote engine's host has no share of the data folder: files travel on this channel (the
    # design is in src/core/sandbox/remotefilesync.h). The host checks what arrives as it checks
    # everything here: user code can write into the channel too.

    def _send_files(self, rid, request):
        """Send NAMES (relative to the data dir) as a tar stream in file_data events: regular
        files with their bytes, anything else as what it is (the host refuses links and the like)."""
        import tarfile

        names = request.get("files")
        if not isinstance(names, list):
            raise ProtocolError("send_files needs 'files', a list of file names")
        frames = _FrameWriter(self, rid)
        with tarfile.open(fileobj=frames, mode="w|", format=tarfile.PAX_FORMAT) as tar:
            for name in names:
                if isinstance(name, str) and name:
                    self._add_to_tar(tar, name)
        frames.flush()
        self.emit({"id": rid, "event": "files_sent"})

    def _add_to_tar(self, tar, name):
        path = os.path.join(self.data_dir, name)
        try:
            info = tar.gettarinfo(path, arcname=name)  # lstat: a link is sent as a link
        except (OSError, ValueError):
            return  # gone meanwhile: the host finds it missing
        if info is None:
            return  # a socket: nothing tar can say
        if not info.isreg():
            info.size = 0
            tar.addfile(info)
            return
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            return
        with os.fdopen(fd, "rb") as handle:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return  # swapped for something else since the lstat
            info.size = st.st_size
            tar.addfile(info, _Exactly(handle, st.st_size))

    def _receive_files(self, rid, request):
        """Uploads: the files' bytes follow the request on stdin; each is written whole (to a
        temporary name, then renamed) or not at all. REMOVE goes first."""
        files = request.get("files", [])
        removals = request.get("remove", [])
        if not isinstance(files, list) or not isinstance(removals, list):
            raise ProtocolError("receive_files needs 'files' and 'remove', lists")
        failed, errors = [], []
        for name in removals:
            if isinstance(name, str) and _plain_name(name):
                try:
                    os.unlink(os.path.join(self.data_dir, name))
                except FileNotFoundError:
                    pass
                except OSError as exc:
                    failed.append(name)
                    errors.append("%s: %s" % (name, exc.strerror))
        for entry in files:
            name = entry.get("name") if isinstance(entry, dict) else None
            size = entry.get("size") if isinstance(entry, dict) else None
            if not (_is_number(size) and size >= 0):
                raise ProtocolError("receive_files: every file needs a size")  # the stream is lost
            error = self._receive_file(name, int(size), entry.get("mtime"))
            if error:
                failed.append(name)
                errors.append("%s: %s" % (name, error))
        self.emit({"id": rid, "event": "files_received", "failed": failed, "errors": errors})

    def _receive_file(self, name, size, mtime):
        """Write the next SIZE bytes of stdin as NAME; why not, or None. The bytes are read
        whatever happens, so that the next request is where it should be."""
        out, tmp, error = None, None, None
        if not (isinstance(name, str) and _plain_name(name)):
            error = "not a name in the folder"
        else:
            path = os.path.join(self.data_dir, name)
            tmp = os.path.join(os.path.dirname(path), ".%s.upload-%s" % (os.path.basename(path),
                                                                          os.urandom(4).hex()))
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            except OSError as exc:
                error, tmp = exc.strerror, None
        left = size
        while left > 0:
            chunk = self._requests.read(min(left, READ_CHUNK))
            if not chunk:
                self._shutdown()  # the host is gone
            left -= len(chunk)
            if out is not None and error is None:
                try:
                    view = memoryview(chunk)
                    while view:
                        view = view[os.write(out, view):]
                except OSError as exc:
                    error = exc.strerror
        if out is not None:
            os.close(out)
        try:
            if error is None:
                if _is_number(mtime):
                    os.utime(tmp, (mtime, mtime))
                os.replace(tmp, path)
                tmp = None
        except OSError as exc:
            error = exc.strerror
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return error

    # ----- rich display: display(), tables, Markdown, SVG, HTML, JSON ------------

    def _install_display(self):
        """display() as a builtin, an IPython.display stand-in, %pip and ! lines."""
        builtins.display = self._display_objects
        builtins.__sandpiper_shell__ = self._shell
        builtins.__sandpiper_magic__ = self._magic
        sys.meta_path.insert(0, IPythonShimFinder(self))
        self._tables = {}  # table id -> the frame, for "Save as CSV/Excel" (the latest TABLES_KEPT)
        self._table_count = 0
        self._given_table_ids = []  # the names of the tables the running cell shows, when given
        self._display_count = 0

    def _display_objects(self, *objs, **kwargs):
        """display(): each object shown as Jupyter would, in order with what is printed."""
        raw = kwargs.get("raw")
        for obj in objs:
            if raw and isinstance(obj, dict):
                self._display_bundle(obj)
                continue
            before = self._display_count
            self._display_rich(obj)
            if self._display_count == before:
                self._display_text(repr(obj))
        if kwargs.get("display_id"):
            return DisplayHandle(self, kwargs["display_id"])
        return None

    def _display_bundle(self, bundle):
        """A raw MIME bundle, {"text/markdown": ..., ...}: the richest part we can show."""
        handlers = (("text/markdown", self._show_markdown), ("image/svg+xml", self._show_svg),
                    ("text/html", self._show_html), ("application/json", self._show_json))
        for mime, handler in handlers:
            if bundle.get(mime):
                handler(bundle[mime])
                return
        if "text/plain" in bundle:
            self._display_text(str(bundle["text/plain"]))

    def _display_formats(self, value, kind):
        """Tables, SVG, Markdown, HTML and JSON of VALUE (after its image, if any)."""
        try:
            frame = _pandas_frame(value)
            if frame is not None:
                self._show_table(_table_from_pandas(*frame), frame[0])
                return
            for method, handler in (("_repr_svg_", self._show_svg),
                                    ("_repr_markdown_", self._show_markdown),
                                    ("_repr_html_", self._show_html),
                                    ("_repr_json_", self._show_json)):
                if not callable(getattr(kind, method, None)):
                    continue
                data = getattr(value, method)()
                if isinstance(data, tuple):  # IPython allows (data, metadata)
                    data = data[0]
                if data:
                    handler(data)
                    return
        except Exception as exc:
            self._display_failed(kind, "rich output", exc)

    def _display_text(self, text):
        """Plain text shown as output, in order with prints."""
        self._display_count += 1
        sys.stdout.write(_capped(text, self._output_limit) + "\n")

    def _show_table(self, table, frame=None):
        self._table_count += 1
        given = self._given_table_ids.pop(0) if self._given_table_ids else None
        table["table_id"] = (given if isinstance(given, str) and TABLE_ID.fullmatch(given)
                             else "t-%s-%d" % (self._figure_token, self._table_count))
        table["exportable"] = frame is not None
        if frame is not None:
            self._tables[table["table_id"]] = frame
            while len(self._tables) > TABLES_KEPT:
                del self._tables[next(iter(self._tables))]
        self._display(mime=TABLE_MIME, table=table)

    def _show_svg(self, data):
        if isinstance(data, bytes):
            data = data.decode("utf-8", "replace")
        self._show_capped("SVG", "image/svg+xml", str(data))

    def _show_markdown(self, data):
        self._show_capped("Markdown", "text/markdown", str(data))

    def _show_capped(self, what, mime, data):
        if not self._too_long(what, data):
            self._display(mime=mime, data=data)

    def _too_long(self, what, data):
        """Says so on stderr when DATA is longer than an execution may show."""
        if len(data) <= self._output_limit:
            return False
        print("%s not shown: %d characters are more than the %d allowed"
              % (what, len(data), self._output_limit), file=sys.stderr)
        return True

    def _show_html(self, data):
        """HTML tables become tables; any other HTML is shown as its text, never as HTML."""
        data = str(data)
        if self._too_long("HTML", data):
            return
        parser = html_tables_parser()
        try:
            parser.feed(data)
            parser.close()
        except Exception:  # html.parser copes with almost anything; give up on the rest
            parser.tables = []
        tables = [t for t in parser.tables if t["columns"] or t["rows"]]
        if not tables:
            self._display_text(parser.text().strip() or "(empty HTML)")
        for table in tables[:TABLES_PER_HTML]:
            self._show_table(table)

    def _show_json(self, data):
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                pass
        self._display_text(json.dumps(data, indent=2, ensure_ascii=False, default=str))

    # ----- tables on request: Save as CSV / Excel -------------------------------

    def _export_table(self, rid, request):
        table_id, fmt, name = request.get("table"), request.get("format"), request.get("path")
        if not isinstance(table_id, str) or fmt not in ("csv", "xlsx"):
            raise ProtocolError("export_table needs 'table' and a 'format' of csv or xlsx")
        if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
            raise ProtocolError("export_table needs 'path', a plain file name")
        started, before = self._begin(rid, DEFAULT_OUTPUT_LIMIT)
        status, error = "ok", None
        try:
            frame = self._tables.get(table_id)
            if frame is None:
                raise LookupError("the table is no longer in the kernel (it was restarted, or many "
                                  "tables were shown since); run its cell again to save it")
            keep_index = not _default_index(frame)
            if fmt == "xlsx":
                rows, columns = frame.shape[0], (frame.shape[1] if frame.ndim > 1 else 1)
                if rows + 1 > EXCEL_ROWS or columns > EXCEL_COLUMNS:
                    raise ValueError("Excel holds at most %d rows and %d columns; this table has %d "
                                     "rows and %d columns: save it as CSV instead"
                                     % (EXCEL_ROWS - 1, EXCEL_COLUMNS, rows, columns))
            handle, written = _create_new_file(name, binary=fmt == "xlsx")
            try:
                with handle:
                    if fmt == "csv":
                        frame.to_csv(handle, index=keep_index)
                    else:
                        frame.to_excel(handle, index=keep_index)
            except BaseException:
                os.unlink(written)  # no half-written table is left
                raise
            self._value = written
        except Exception as exc:
            status, error = "error", _format_error(exc)
        self._finish(rid, started, before, status, error, None)

    # ----- %pip and ! lines ------------------------------------------------------

    def _expand(self, text):
        """{expression} and $name in a ! or % line, as IPython expands them; the rest stays."""
        import re

        def evaluate(match):
            try:
                return str(eval(match.group(1), self.namespace))
            except Exception:
                return match.group(0)

        def lookup(match):
            value = self.namespace.get(match.group(1), match)
            return match.group(0) if value is match else str(value)

        text = re.sub(r"(?<!\{)\{([^{}]+)\}(?!\})", evaluate, text)
        return re.sub(r"(?<!\$)\$([A-Za-z_][A-Za-z0-9_]*)", lookup, text)

    def _shell(self, command):
        """A ! line: pip goes to _pip, anything else runs in a shell, output shown."""
        command = self._expand(command)
        words = _split(command)
        if words[:1] in (["pip"], ["pip3"]):
            return self._pip(words[1:])
        if len(words) > 2 and words[0] in ("python", "python3") and words[1:3] == ["-m", "pip"]:
            return self._pip(words[3:])
        import subprocess
        sys.stdout.flush()
        sys.stderr.flush()
        subprocess.run(command, shell=True, stdin=subprocess.DEVNULL)
        return None

    def _magic(self, line):
        """A % line: %pip, and %matplotlib (figures show by themselves)."""
        name, _, rest = line.partition(" ")
        if name in ("pip", "pip3"):
            return self._pip(_split(self._expand(rest)))
        if name == "matplotlib":
            return None
        raise NameError("%%%s: only %%pip and %%matplotlib work in this sandbox (it is not "
                        "IPython); write plain Python instead" % name)

    def _pip(self, args):
        """pip into the conversation's package folder, visible at once; or why it cannot."""
        import subprocess
        if args[:1] in (["install"], ["download"], ["wheel"]) and not _network_allowed() \
                and not _local_only(args[1:]):
            print(OFFLINE_PIP_MESSAGE, file=sys.stderr)
            return None
        sys.stdout.flush()
        sys.stderr.flush()
        subprocess.run([sys.executable, "-m", "pip"] + list(args), stdin=subprocess.DEVNULL)
        _refresh_packages()
        return None

    # ----- attachments -------------------------------------------------------------

    def _describe(self, rid, request):
        """What each attached file is: size, type and a short preview, as text for the model."""
        names = request.get("files")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ProtocolError("describe needs 'files', a list of file names")
        timeout = request.get("timeout", DESCRIBE_SECONDS)
        if not (_is_number(timeout) and timeout > 0):
            raise ProtocolError("timeout must be a positive number of seconds")
        started, before = self._begin(rid, DEFAULT_OUTPUT_LIMIT)
        texts = []
        try:
            self._arm(timeout)
            for name in names[:MAX_DESCRIBED]:
                texts.append(describe_file(self.data_dir, name))
        except KeyboardInterrupt:
            texts.append("(the preview of the other files took too long)")
        finally:
            self._disarm()
        self._value = "\n".join(texts)
        self._finish(rid, started, before, "ok", None, None)


# ===== rich display, tables, packages and attachments =========================
# display() and the IPython.display stand-in, DataFrames as tables, %pip and ! lines,
# the conversation's package folder, and what an attached file is.

TABLE_MIME = "application/vnd.sandpiper.table+json"
TABLE_ROWS = 200  # rows of a frame sent to the host; the shape says how many there are
TABLE_COLUMNS = 100  # columns sent of a wider frame
TABLE_BYTES = 512 * 1024  # at most, per table; fewer rows are sent beyond it
TABLE_CELL_CHARS = 200
TABLES_KEPT = 20  # frames the host can still ask to save
TABLE_ID = re.compile(r"t-[0-9a-f]{8}-[0-9]{1,9}")  # the names _show_table gives
TABLES_PER_HTML = 5
EXCEL_ROWS, EXCEL_COLUMNS = 1048576, 16384
EXACT_INTEGER = 2 ** 53  # beyond it a JSON number loses digits on the host: sent as text
PRIVATE_DIR = ".sandpiper"  # the kernel's own things in the data folder: packages
DESCRIBE_SECONDS = 20
MAX_DESCRIBED = 20
DESCRIPTION_CHARS = 1500
PREVIEW_ROWS = 5
COUNT_BYTES = 512 << 20  # lines counted at most, per file
OFFLINE_PIP_MESSAGE = (
    "pip cannot download packages: this conversation's sandbox has no network access. The user "
    "can allow it with the \"Network in sandbox\" switch below the message box (the sandbox then "
    "restarts: variables are lost, installed packages stay). A wheel file in /mnt/data installs "
    "without network: %pip install /mnt/data/NAME.whl")


class _FrameWriter:
    """A file for tarfile that sends what is written to it as file_data events."""

    def __init__(self, kernel, rid):
        self._kernel, self._pending = kernel, bytearray()
        self._id = json.dumps(rid, ensure_ascii=False).encode("utf-8", "replace")

    def write(self, data):
        self._pending += data
        while len(self._pending) >= FRAME_BYTES:
            self._send(bytes(self._pending[:FRAME_BYTES]))
            del self._pending[:FRAME_BYTES]
        return len(data)

    def flush(self):
        if self._pending:
            self._send(bytes(self._pending))
            self._pending.clear()

    def _send(self, data):
        import base64

        # The line json.dumps would write, without its scan of a megabyte that needs no escape.
        self._kernel.emit_line(b'{"event":"file_data","id":%s,"data":"%s"}\n'
                               % (self._id, base64.b64encode(data)))


class _Exactly:
    """SIZE bytes of a file that may shrink or grow meanwhile: zeros make up for what is gone."""

    def __init__(self, handle, size):
        self._handle, self._left = handle, size

    def read(self, n=-1):
        n = self._left if n is None or n < 0 else min(n, self._left)
        data = self._handle.read(n) if n else b""
        data += bytes(n - len(data))
        self._left -= n
        return data


def _plain_name(name):
    """Whether NAME (from the host) names something inside the data folder."""
    parts = name.split("/")
    return (not name.startswith("/") and "\0" not in name
            and all(part not in ("", ".", "..") for part in parts))


def _capped(text, limit):
    if len(text) <= limit:
        return text
    return "%s... [%d more characters]" % (text[:limit], len(text) - limit)


def _split(command):
    import shlex
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _pandas_frame(value):
    """(frame, kind) for a DataFrame, Series or Styler; None for anything else."""
    if _is_instance(value, "pandas", "DataFrame"):
        return value, "DataFrame"
    if _is_instance(value, "pandas", "Series"):
        return value, "Series"
    if _is_instance(value, "pandas.io.formats.style", "Styler"):
        return value.data, "DataFrame"
    return None


def _default_index(frame):
    index = frame.index
    return (index.nlevels == 1 and index.name is None
            and type(index).__name__ == "RangeIndex" and index.start == 0 and index.step == 1)


def _label(value):
    if isinstance(value, tuple):  # a MultiIndex level's labels
        return " / ".join(_label(v) for v in value)
    return value if isinstance(value, str) else str(value)


def _generic_cell(value):
    """A cell as JSON: numbers, booleans and text as themselves, missing values as null."""
    if value is None:
        return None
    if hasattr(value, "dtype") and hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        try:
            value = value.item()  # a numpy scalar in an object column
        except (ValueError, TypeError):
            pass
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if -EXACT_INTEGER <= value <= EXACT_INTEGER else str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return None
        return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, str):
        return _capped(value, TABLE_CELL_CHARS)
    if isinstance(value, (bytes, bytearray)):
        return _capped(repr(bytes(value)), TABLE_CELL_CHARS)
    pandas = sys.modules.get("pandas")
    if pandas is not None and (value is pandas.NaT or value is getattr(pandas, "NA", None)):
        return None
    try:
        return _capped(str(value), TABLE_CELL_CHARS)
    except Exception as exc:
        return "<unprintable %s: %s>" % (type(value).__name__, type(exc).__name__)


def _column_cells(series, rows):
    """The first ROWS values of a pandas Series as JSON cells, fast for the common dtypes."""
    kind = getattr(series.dtype, "kind", "O")
    head = series.iloc[:rows]
    if kind == "b" and not head.hasnans:
        return head.tolist()
    if kind in "iu":
        return [v if -EXACT_INTEGER <= v <= EXACT_INTEGER else str(v) for v in head.tolist()]
    if kind == "f":
        return [v if math.isfinite(v) else (None if math.isnan(v) else ("inf" if v > 0 else "-inf"))
                for v in head.tolist()]
    if kind in "mM":
        values = head.tolist()
        if kind == "M" and all(v != v or v == v.normalize() for v in values):
            return [None if v != v else str(v.date()) for v in values]  # dates, as pandas shows them
        return [None if v != v else str(v) for v in values]  # NaT != NaT
    return [_generic_cell(v) for v in head.tolist()]


def _table_from_pandas(frame, kind):
    """The head of a DataFrame or Series as a table event's payload, capped in bytes."""
    if kind == "Series":
        name = frame.name
        frame = frame.to_frame(name=_label(name) if name is not None else "value")
    total_rows, total_columns = frame.shape
    shown = frame.iloc[:TABLE_ROWS, :TABLE_COLUMNS]
    columns, dtypes, cells = [], [], []
    index_columns = 0
    if not _default_index(frame):
        index = shown.index
        index_columns = index.nlevels
        for level in range(index.nlevels):
            values = index.get_level_values(level)
            columns.append(_label(values.name) if values.name is not None else "")
            dtypes.append(str(values.dtype))
            cells.append([_generic_cell(v) for v in values.tolist()])
    for position in range(shown.shape[1]):
        series = shown.iloc[:, position]
        columns.append(_label(shown.columns[position]))
        dtypes.append(str(series.dtype))
        cells.append(_column_cells(series, TABLE_ROWS))
    rows = [list(row) for row in zip(*cells)] if cells else []
    rows = _rows_within(rows, TABLE_BYTES - len(json.dumps(columns)) - len(json.dumps(dtypes)))
    return {"kind": kind, "columns": columns, "dtypes": dtypes, "index_columns": index_columns,
            "rows": rows, "total_rows": total_rows,
            "total_columns": total_columns + index_columns}


def _rows_within(rows, budget):
    """As many leading ROWS as fit in BUDGET bytes of JSON."""
    used = 0
    for count, row in enumerate(rows):
        used += len(json.dumps(row, ensure_ascii=False, default=str)) + 1
        if used > budget:
            return rows[:count]
    return rows


def html_tables_parser():
    """A parser for the tables in a piece of HTML and its text: HTML is never shown as HTML."""
    import html.parser

    class Parser(html.parser.HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.tables, self._text, self._stack = [], [], []
            self._cell = None
            self._skip = 0

        def handle_starttag(self, tag, attrs):
            if tag in ("script", "style"):
                self._skip += 1
            elif tag == "table":
                self._stack.append({"head": [], "body": [], "row": None, "in_head": False})
            elif self._stack:
                table = self._stack[-1]
                if tag == "thead":
                    table["in_head"] = True
                elif tag == "tbody":
                    table["in_head"] = False
                elif tag == "tr":
                    table["row"] = []
                    (table["head"] if table["in_head"] else table["body"]).append(table["row"])
                elif tag in ("td", "th") and table["row"] is not None:
                    self._cell = []
            elif tag in ("br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4"):
                self._text.append("\n")

        def handle_endtag(self, tag):
            if tag in ("script", "style"):
                self._skip = max(0, self._skip - 1)
            elif tag in ("td", "th") and self._cell is not None and self._stack:
                row = self._stack[-1]["row"]
                if row is not None:
                    row.append(" ".join("".join(self._cell).split()))
                self._cell = None
            elif tag == "table" and self._stack:
                self.tables.append(_html_table(self._stack.pop()))

        def handle_data(self, data):
            if self._skip:
                return
            if self._cell is not None:
                self._cell.append(data)
            elif not self._stack:
                self._text.append(data)

        def text(self):
            lines = ("".join(self._text)).split("\n")
            return "\n".join(" ".join(line.split()) for line in lines if line.strip())

    return Parser()


def _html_table(parsed):
    head = [row for row in parsed["head"] if row]
    body = [row for row in parsed["body"] if row]
    if not head and body and len(body) > 1:
        head = [body.pop(0)]
    columns = head[0] if head else []
    width = max([len(columns)] + [len(row) for row in body])
    columns = columns + [""] * (width - len(columns))
    rows = [(row + [None] * (width - len(row)))[:TABLE_COLUMNS] for row in body[:TABLE_ROWS]]
    rows = [[_html_cell(c) for c in row] for row in rows]
    return {"kind": "HTML", "columns": columns[:TABLE_COLUMNS], "dtypes": [""] * min(width, TABLE_COLUMNS),
            "index_columns": 0, "rows": _rows_within(rows, TABLE_BYTES), "total_rows": len(body),
            "total_columns": width}


def _html_cell(text):
    """Numbers in an HTML table become numbers, so that they sort as numbers."""
    if text is None or text in ("", "NaN", "nan", "None", "NaT", "<NA>"):
        return None if text != "" else ""
    try:
        number = float(text.replace(",", ""))
    except ValueError:
        return _capped(text, TABLE_CELL_CHARS)
    if math.isfinite(number) and number == int(number) and "." not in text and "e" not in text.lower():
        return int(number) if abs(number) <= EXACT_INTEGER else text
    return number if math.isfinite(number) else text


class DisplayHandle:
    """What display(..., display_id=...) returns: update() shows the new object below."""

    def __init__(self, kernel, display_id):
        self._kernel = kernel
        self.display_id = display_id

    def display(self, obj, **kwargs):
        self._kernel._display_objects(obj)

    def update(self, obj, **kwargs):
        self._kernel._display_objects(obj)


# The IPython.display stand-in, for code written for Jupyter when IPython is not installed.
IPYTHON_DISPLAY_SOURCE = '''
import base64 as _base64
import builtins as _builtins
import json as _json
import os as _os

__all__ = ["display", "clear_output", "update_display", "DisplayHandle", "DisplayObject", "HTML",
           "Markdown", "Image", "JSON", "SVG", "Latex", "Math", "Pretty", "Code"]


def display(*objs, **kwargs):
    return _builtins.display(*objs, **kwargs)


def update_display(obj, *, display_id, **kwargs):
    _builtins.display(obj)


def clear_output(wait=False):
    """Output cannot be taken back in the sandbox's chat; nothing happens."""


class DisplayObject:
    def __init__(self, data=None, url=None, filename=None, **kwargs):
        if isinstance(data, str) and filename is None and url is None and len(data) < 4096 \\
                and _os.path.isfile(data) and not isinstance(self, (Markdown, Latex, Math, Code)):
            filename, data = data, None
        self.data, self.url, self.filename = data, url, filename
        if filename is not None:
            with open(filename, "rb" if isinstance(self, Image) else "r") as f:
                self.data = f.read()
        elif url is not None and data is None:
            raise ValueError("the sandbox does not fetch URLs for display; download the file first")

    def _text(self):
        return self.data if isinstance(self.data, str) else ("" if self.data is None else str(self.data))


class HTML(DisplayObject):
    def _repr_html_(self):
        return self._text()


class Markdown(DisplayObject):
    def _repr_markdown_(self):
        return self._text()


class SVG(DisplayObject):
    def _repr_svg_(self):
        data = self.data
        return data.decode("utf-8", "replace") if isinstance(data, bytes) else self._text()


class Latex(DisplayObject):
    def _repr_markdown_(self):
        return self._text()


class Math(Latex):
    def _repr_markdown_(self):
        return "$$%s$$" % self._text().strip("$")


class Code(DisplayObject):
    def __init__(self, data=None, url=None, filename=None, language="python"):
        super().__init__(data, url, filename)
        self.language = language

    def _repr_markdown_(self):
        return "```%s\\n%s\\n```" % (self.language or "", self._text())


class Pretty(DisplayObject):
    def __repr__(self):
        return self._text()


class JSON(DisplayObject):
    def __init__(self, data=None, url=None, filename=None, expanded=False, metadata=None, root="root",
                 **kwargs):
        super().__init__(data, url, filename)
        if isinstance(self.data, str):
            self.data = _json.loads(self.data)

    def _repr_json_(self):
        return self.data


class Image(DisplayObject):
    def __init__(self, data=None, url=None, filename=None, format=None, embed=None, width=None,
                 height=None, **kwargs):
        if isinstance(data, str) and not _os.path.isfile(data) and len(data) > 100:
            data = _base64.b64decode(data)  # base64 text, as Jupyter accepts
        super().__init__(data, url, filename)
        self.format, self.width, self.height = format, width, height

    def _repr_png_(self):
        data = self.data
        if not isinstance(data, (bytes, bytearray)):
            return None
        if data[:8] == b"\\x89PNG\\r\\n\\x1a\\n":
            return bytes(data)
        import io
        from PIL import Image as _PILImage  # JPEG, GIF, ...: shown as PNG
        out = io.BytesIO()
        image = _PILImage.open(io.BytesIO(data))
        image.convert("RGBA").save(out, format="PNG")
        return out.getvalue()


DisplayHandle = None  # set by the kernel
'''


class IPythonShimFinder:
    """IPython.display for code written for Jupyter: the stand-in when IPython is not installed,
    and the real one's display() pointed at the kernel's when it is (outside a notebook it prints).
    """

    NAMES = ("IPython", "IPython.display", "IPython.core", "IPython.core.display")
    REAL_DISPLAY = "IPython.core.display_functions"

    def __init__(self, kernel):
        self._kernel = kernel
        self._real = None

    def _has_real(self):
        if self._real is None:
            import importlib.machinery
            self._real = importlib.machinery.PathFinder.find_spec("IPython") is not None
        return self._real

    def find_spec(self, name, path=None, target=None):
        if name == self.REAL_DISPLAY:
            import importlib.machinery
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is not None and spec.loader is not None:
                spec.loader = _DisplayPatch(spec.loader, self._kernel._display_objects)
            return spec
        if name not in self.NAMES or self._has_real():
            return None
        import importlib.machinery
        return importlib.machinery.ModuleSpec(name, self, is_package=name in ("IPython", "IPython.core"))

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        import importlib
        name = module.__name__
        if name == "IPython":
            module.get_ipython = lambda: None  # "not in a notebook", as libraries check
            module.version_info = (0, 0, 0)
            module.__version__ = "0"  # not IPython: the sandbox's stand-in
            module.display = importlib.import_module("IPython.display")
        elif name == "IPython.display":
            exec(compile(IPYTHON_DISPLAY_SOURCE, "<IPython.display>", "exec"), module.__dict__)
            module.DisplayHandle = DisplayHandle
        elif name == "IPython.core.display":  # the same objects
            module.__dict__.update(importlib.import_module("IPython.display").__dict__)


class _DisplayPatch:
    """Loads IPython's display functions, then makes display() the kernel's."""

    def __init__(self, loader, display):
        self._loader, self._display = loader, display

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        module.display = self._display


def _without_magics(source, lines, filename):
    """SOURCE with its %pip, %matplotlib and ! lines turned into calls; unchanged without any.

    Only lines that start a statement count: the same text inside a string stays text.
    """
    if not any(line.lstrip()[:1] in ("!", "%") for line in lines):
        return source, lines
    try:
        compile(source, filename, "exec", ast.PyCF_ONLY_AST | COMPILE_FLAGS, dont_inherit=True)
        return source, lines
    except (SyntaxError, ValueError):
        pass
    import tokenize
    translated = list(lines)
    replaced = {}
    for number, line in enumerate(lines):
        body = line.strip()
        indent = line[:len(line) - len(line.lstrip())]
        if body.startswith("!"):
            call = "__sandpiper_shell__(%r)" % body[1:].strip()
        elif body.startswith("%"):
            call = "__sandpiper_magic__(%r)" % body.lstrip("%").strip()
        else:
            continue
        translated[number] = indent + call + "\n"
        replaced[number + 1] = len(indent)
    found = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO("".join(translated)).readline):
            if token.type == tokenize.NAME and token.string.startswith("__sandpiper_"):
                found.add(token.start)
    except (tokenize.TokenError, SyntaxError):
        return source, lines
    for row, column in replaced.items():
        if (row, column) not in found:  # inside a string: not a magic after all
            translated[row - 1] = lines[row - 1]
    return "".join(translated)[:-1], translated


# ----- the conversation's package folder -----------------------------------------

def _network_allowed():
    # The host says whether the container has network; without its word, pip is not held back.
    return os.environ.get("SANDPIPER_NETWORK") != "0"


def _local_only(args):
    """Whether a pip install needs no index: --no-index, or only files and folders to install."""
    if "--no-index" in args:
        return True
    if any(a in ("-r", "--requirement") or a.startswith("--requirement=") for a in args):
        return False
    targets = [a for a in args if not a.startswith("-")]
    return bool(targets) and all(os.path.exists(a) for a in targets)


def _user_site():
    base = os.environ.get("PYTHONUSERBASE")
    if not base:
        return None
    return os.path.join(base, "lib", "python%d.%d" % sys.version_info[:2], "site-packages")


def _prepare_packages(data_dir):
    """pip installs into DATA_DIR/.sandpiper/python, as for `pip install --user`.

    /tmp is a noexec tmpfs (compiled extensions cannot load from it) and goes with the container;
    the data folder is the conversation's own, keeps what is installed across restarts, and
    counts against the conversation's disk limit. The kernel and every Python it starts see it.
    """
    base = os.path.join(os.path.abspath(data_dir), PRIVATE_DIR, "python")
    env = {"PYTHONUSERBASE": base, "PIP_USER": "1", "PIP_BREAK_SYSTEM_PACKAGES": "1",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1", "PIP_NO_CACHE_DIR": "1",
           "PIP_PROGRESS_BAR": "off", "PIP_ROOT_USER_ACTION": "ignore"}
    if not _network_allowed():
        env.update({"PIP_RETRIES": "0", "PIP_TIMEOUT": "5"})  # fail at once, not after minutes
    os.environ.update(env)
    os.environ["PATH"] = os.path.join(base, "bin") + os.pathsep + os.environ.get("PATH", "")
    site_dir = _user_site()
    try:
        os.makedirs(site_dir, exist_ok=True)
    except OSError:
        return
    import site
    site.USER_BASE, site.USER_SITE = base, site_dir
    # Before the system's packages, as Python puts a user's: an upgrade installed here wins.
    system = [i for i, p in enumerate(sys.path) if p.endswith(("dist-packages", "site-packages"))]
    sys.path.insert(system[0] if system else len(sys.path), site_dir)
    _refresh_packages()


def _refresh_packages():
    """Makes what pip just installed importable in the running kernel."""
    site_dir = _user_site()
    if site_dir and os.path.isdir(site_dir):
        import importlib
        import site
        site.addsitedir(site_dir)  # runs the .pth files of new packages; the path is known
        importlib.invalidate_caches()


# ----- what an attached file is --------------------------------------------------

FILE_KINDS = {
    ".csv": "CSV table", ".tsv": "TSV table", ".tab": "TSV table", ".xlsx": "Excel workbook",
    ".xlsm": "Excel workbook", ".xls": "Excel 97-2003 workbook", ".ods": "OpenDocument spreadsheet",
    ".json": "JSON", ".jsonl": "JSON lines", ".ndjson": "JSON lines", ".parquet": "Parquet table",
    ".pdf": "PDF document", ".docx": "Word document", ".txt": "text", ".md": "Markdown text",
    ".log": "text", ".xml": "XML", ".html": "HTML", ".htm": "HTML", ".py": "Python source",
    ".png": "image", ".jpg": "image", ".jpeg": "image", ".gif": "image", ".bmp": "image",
    ".webp": "image", ".tif": "image", ".tiff": "image",
}


def _human_size(size):
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return ("%d %s" % (size, unit)) if unit == "bytes" else ("%.1f %s" % (size, unit))
        size /= 1024.0
    return ""


def _count_lines(path):
    """Lines in PATH, or (at least this many, True) beyond COUNT_BYTES."""
    count, read = 0, 0
    with open(path, "rb") as f:
        while read < COUNT_BYTES:
            chunk = f.read(1 << 20)
            if not chunk:
                return count, False
            read += len(chunk)
            count += chunk.count(b"\n")
    return count, True


def _frame_preview(frame, total_rows=None, more=False):
    rows = frame.shape[0] if total_rows is None else total_rows
    columns = ", ".join("%s (%s)" % (_label(c), frame[c].dtype) for c in list(frame.columns)[:30])
    if frame.shape[1] > 30:
        columns += ", ... (%d more)" % (frame.shape[1] - 30)
    rows_text = ("at least %d" % rows) if more else ("%d" % rows)
    head = frame.head(PREVIEW_ROWS).to_string(max_cols=12, max_colwidth=30, show_dimensions=False)
    return ["%s rows x %d columns: %s" % (rows_text, frame.shape[1], columns), "first rows:"] + \
        ["    " + line for line in head.split("\n")]


def _describe_csv(path, sep):
    import pandas
    frame = pandas.read_csv(path, sep=sep, nrows=PREVIEW_ROWS, engine="python" if sep is None else "c")
    lines, more = _count_lines(path)
    return _frame_preview(frame, max(0, lines - 1), more)


def _describe_excel(path):
    import pandas
    book = pandas.ExcelFile(path)
    out = ["sheets: %s" % ", ".join(repr(s) for s in book.sheet_names[:20])]
    for sheet in book.sheet_names[:3]:
        frame = book.parse(sheet, nrows=PREVIEW_ROWS)
        rows = None
        try:
            if hasattr(book.book, "sheet_by_name"):  # xlrd
                rows = book.book.sheet_by_name(sheet).nrows - 1
            elif hasattr(book.book, "worksheets"):  # openpyxl
                rows = (book.book[sheet].max_row or 1) - 1
        except Exception:
            rows = None  # odf, or a sheet that does not say
        out.append("sheet %r:" % sheet)
        preview = _frame_preview(frame, rows if rows is not None else frame.shape[0], rows is None)
        out += ["  " + line for line in preview]
    return out


def _describe_json(path, lines_format):
    if lines_format:
        lines, more = _count_lines(path)
        with open(path, encoding="utf-8", errors="replace") as f:
            first = json.loads(f.readline() or "null")
        keys = ", ".join(list(first)[:30]) if isinstance(first, dict) else type(first).__name__
        return ["%s%d records; the first has: %s" % ("at least " if more else "", lines, keys)]
    if os.path.getsize(path) > 64 << 20:
        return ["too large to look into here (read it with pandas or ijson)"]
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if isinstance(data, list):
        first = data[0] if data else None
        keys = (": records with " + ", ".join(map(str, list(first)[:30]))) if isinstance(first, dict) else ""
        return ["a list of %d items%s" % (len(data), keys)]
    if isinstance(data, dict):
        return ["an object with keys: %s" % ", ".join(map(str, list(data)[:30]))]
    return ["a single %s" % type(data).__name__]


def _describe_pdf(path):
    try:
        from pypdf import PdfReader
    except ImportError:
        return ["(pypdf is not installed: no preview)"]
    reader = PdfReader(path)
    if reader.is_encrypted:
        try:
            opened = reader.decrypt("")
        except Exception:
            opened = 0
        if not opened:
            return ["encrypted: it cannot be read without its password (ask the user for it; "
                    "pypdf's PdfReader.decrypt(password) opens it)"]
    pages = len(reader.pages)
    text = ""
    for page in reader.pages[:3]:
        text += (page.extract_text() or "") + "\n"
        if len(text) > 600:
            break
    first = [line.strip() for line in text.split("\n") if line.strip()][:8]
    out = ["%d pages" % pages]
    out += ["first lines:"] + ["    " + _capped(line, 120) for line in first] if first else \
        ["no text layer on the first pages (a scan?)"]
    return out


def _describe_docx(path):
    import docx
    document = docx.Document(path)
    paragraphs = [p.text.strip() for p in document.paragraphs if p.text.strip()]
    out = ["%d paragraphs, %d tables" % (len(paragraphs), len(document.tables))]
    if paragraphs:
        out += ["first lines:"] + ["    " + _capped(p, 120) for p in paragraphs[:6]]
    return out


def _describe_image(path):
    from PIL import Image as PILImage
    with PILImage.open(path) as image:
        return ["%s, %d x %d pixels, mode %s" % (image.format, image.width, image.height, image.mode)]


def _describe_text(path):
    lines, more = _count_lines(path)
    with open(path, encoding="utf-8", errors="replace") as f:
        first = [f.readline().rstrip("\n") for _ in range(PREVIEW_ROWS)]
    return ["%s%d lines" % ("at least " if more else "", lines), "first lines:"] + \
        ["    " + _capped(line, 160) for line in first if line]


def describe_file(data_dir, name):
    """One attached file for the model: where, how big, what kind, and a short preview."""
    path = os.path.join(data_dir, name)
    shown = "/mnt/data/" + name
    try:
        size = os.stat(path).st_size
    except OSError as exc:
        return "- %s: cannot be read (%s)" % (shown, exc.strerror)
    extension = os.path.splitext(name)[1].lower()
    kind = FILE_KINDS.get(extension, "file")
    head = "- %s: %s, %s" % (shown, kind, _human_size(size))
    readers = {".csv": lambda: _describe_csv(path, ","), ".tsv": lambda: _describe_csv(path, "\t"),
               ".tab": lambda: _describe_csv(path, "\t"), ".xlsx": lambda: _describe_excel(path),
               ".xlsm": lambda: _describe_excel(path), ".xls": lambda: _describe_excel(path),
               ".ods": lambda: _describe_excel(path), ".json": lambda: _describe_json(path, False),
               ".jsonl": lambda: _describe_json(path, True), ".ndjson": lambda: _describe_json(path, True),
               ".pdf": lambda: _describe_pdf(path), ".docx": lambda: _describe_docx(path),
               ".parquet": lambda: _describe_parquet(path)}
    if kind == "image":
        reader = lambda: _describe_image(path)  # noqa: E731
    elif kind in ("text", "Markdown text", "XML", "HTML", "Python source") or extension == "":
        reader = lambda: _describe_text(path)  # noqa: E731
    else:
        reader = readers.get(extension)
    if reader is None or size == 0:
        return head + ("" if size else " (empty)")
    try:
        lines = reader()
    except ImportError as exc:
        lines = ["(no preview: %s is not installed)" % exc.name]
    except Exception as exc:
        lines = ["could not be read as %s: %s: %s" % (kind, type(exc).__name__, _capped(str(exc), 200))]
    return _capped("\n".join([head + ";"] + ["  " + line for line in lines]), DESCRIPTION_CHARS)


def _describe_parquet(path):
    import pandas
    try:
        frame = pandas.read_parquet(path)
    except ImportError:
        return ["(no Parquet reader in the sandbox: pyarrow or fastparquet is needed; "
                "%pip install pyarrow works when the network is on)"]
    return _frame_preview(frame)


def _create_new_file(name, binary):
    """A new file NAME in the working folder, or "stem (2).ext" and so on when that name is taken
    (by a file, a folder or a link, even a dangling one): never written through a link, never
    over a file. Returns the open file and the name used."""
    stem, dot, extension = name.rpartition(".") if "." in name else (name, "", "")
    for number in range(1, 1000):
        candidate = name if number == 1 else "%s (%d)%s%s" % (stem, number, dot, extension)
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        except FileExistsError:
            continue
        handle = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="")
        return handle, candidate
    raise FileExistsError("no free name for %s in the folder" % name)


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
    _prepare_packages(data_dir)
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
