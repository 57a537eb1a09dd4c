"""Tests for the Sandpiper sandbox kernel (sandbox/kernel/kernel.py).

    python3 tests/sandbox/kernel/test_kernel.py [--kernel PATH] [unittest args]
    python3 -m unittest tests/sandbox/kernel/test_kernel.py

SANDPIPER_KERNEL=PATH overrides the kernel path. Tests that need matplotlib, pandas,
PIL or seaborn are skipped when those are missing, unless SANDPIPER_REQUIRE_SCIENCE=1,
in which case they run (and fail).
"""
import importlib.util
import itertools
import json
import math
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = os.environ.get("SANDPIPER_KERNEL") or os.path.normpath(
    os.path.join(HERE, "..", "..", "..", "sandbox", "kernel", "kernel.py"))
REQUIRE_SCIENCE = os.environ.get("SANDPIPER_REQUIRE_SCIENCE") == "1"
EVENT_TIMEOUT = 30.0
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TABLE_MIME = "application/vnd.sandpiper.table+json"


def needs(*modules):
    """Skip a test when a module is missing, unless the science stack is required."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing and not REQUIRE_SCIENCE:
        return unittest.skip("needs " + ", ".join(missing))
    return lambda test: test


class Reply:
    """Everything the kernel sent for one request, ending with its result event."""

    def __init__(self, events):
        self.events = events
        self.result = events[-1]
        self.status = self.result["status"]
        self.value = self.result["value"]
        self.error = self.result["error"]

    def text(self, stream):
        return "".join(e["text"] for e in self.events
                       if e["event"] == "stream" and e["name"] == stream)

    @property
    def stdout(self):
        return self.text("stdout")

    @property
    def stderr(self):
        return self.text("stderr")

    @property
    def displays(self):
        return [e for e in self.events if e["event"] == "display"]

    @property
    def tables(self):
        return [e["table"] for e in self.displays if e["mime"] == TABLE_MIME]


class KernelProcess:
    """A kernel subprocess with a private data dir, read by a thread so reads can time out."""

    def __init__(self, env=None, via_source=False, data_dir=None):
        self._own_data_dir = data_dir is None
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="sandpiper-kernel-test-")
        if via_source:
            with open(KERNEL, encoding="utf-8") as f:
                command = [sys.executable, "-c", f.read(), "--data", self.data_dir]
        else:
            command = [sys.executable, KERNEL, "--data", self.data_dir]
        started = time.monotonic()
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self._events = queue.Queue()
        self._stderr = []
        self._ids = itertools.count(1)
        threading.Thread(target=self._read_events, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self.ready = self.next_event()
        self.startup_seconds = time.monotonic() - started

    def _read_events(self):
        for line in self.proc.stdout:
            try:
                self._events.put(json.loads(line.decode("utf-8")))
            except ValueError:
                self._events.put({"event": "INVALID", "line": line})
        self._events.put({"event": "EOF"})

    def _read_stderr(self):
        for line in self.proc.stderr:
            self._stderr.append(line.decode("utf-8", "replace"))

    def next_event(self, timeout=EVENT_TIMEOUT):
        try:
            event = self._events.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise AssertionError("no event from the kernel within %.1f s; its stderr: %s"
                                 % (timeout, "".join(self._stderr))) from None
        if event["event"] in ("INVALID", "EOF"):
            raise AssertionError("kernel protocol broken: %r; its stderr: %s"
                                 % (event, "".join(self._stderr)))
        return event

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, request):
        self.send_raw(json.dumps(request).encode("utf-8") + b"\n")

    def request(self, op, **fields):
        rid = "r%d" % next(self._ids)
        self.send(dict(fields, id=rid, op=op))
        return rid

    def collect(self, rid, wait=EVENT_TIMEOUT):
        """Events of one request up to its result; events of other requests are skipped."""
        deadline = time.monotonic() + wait
        events = []
        while True:
            event = self.next_event(deadline - time.monotonic())
            if event.get("id") != rid:
                continue
            events.append(event)
            if event["event"] == "result":
                return Reply(events)

    def execute(self, code, wait=EVENT_TIMEOUT, **fields):
        """Run code; fields (timeout, output_limit) go into the request."""
        return self.collect(self.request("execute", code=code, **fields), wait)

    def wait_exit(self, timeout=10):
        return self.proc.wait(timeout)

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send({"op": "shutdown"})
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()
        if self._own_data_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)


class KernelTestCase(unittest.TestCase):
    """One kernel per class: tests in a class share it where state does not matter."""

    @classmethod
    def setUpClass(cls):
        cls.kernel = KernelProcess()

    @classmethod
    def tearDownClass(cls):
        cls.kernel.close()

    def run_ok(self, code, **fields):
        reply = self.kernel.execute(code, **fields)
        self.assertEqual(reply.status, "ok", reply.error)
        return reply

    def run_error(self, code, error_type, **fields):
        reply = self.kernel.execute(code, **fields)
        self.assertEqual(reply.status, "error", reply.result)
        self.assertEqual(reply.error["type"], error_type, reply.error)
        return reply

    def figure_files(self):
        figures = os.path.join(self.kernel.data_dir, "figures")
        return set(os.listdir(figures)) if os.path.isdir(figures) else set()

    def assert_png(self, display):
        self.assertEqual(display["mime"], "image/png")
        self.assertTrue(display["path"].startswith("figures/"), display)
        with open(os.path.join(self.kernel.data_dir, display["path"]), "rb") as f:
            self.assertEqual(f.read(8), PNG_SIGNATURE)


class Prefix(str):
    """Expected value: the repr must start with this."""


class Raises(str):
    """Expected outcome: an error of this type."""


class Prints:
    """Expected outcome: this value, and this text on stdout."""

    def __init__(self, value, stdout):
        self.value, self.stdout = value, stdout


# Run in order on one kernel: later cases use names defined by earlier ones.
DISPLAY_CASES = [
    ("2+2", "4"),
    ("x = 5", None),
    ("x", "5"),
    ("None", None),
    ("2+2;", None),
    ("2+2  # comment", "4"),
    ("2+2; # c", None),
    ("print(3)", Prints(None, "3\n")),
    ("print('a'); 5", Prints("5", "a\n")),
    ("for i in range(2): i", None),
    ("if True:\n    5", None),
    ("if True:\n    pass\n6", "6"),
    ("def f(): return 1", None),
    ("f()", "1"),
    ("import math", None),
    ("math.pi", repr(math.pi)),
    ("'a'", "'a'"),
    ("[1, 2]", "[1, 2]"),
    ("{'a': 1}", "{'a': 1}"),
    ("y = 2\nz = 3\ny * z", "6"),
    ("with open('display.txt', 'w') as fh:\n    fh.write('hi')", None),
    ("with open('display.txt') as fh:\n    content = fh.read()\ncontent", "'hi'"),
    ("x = 1\nx", "1"),
    ("lambda: 0", Prefix("<function <lambda>")),
    ("a, b = 1, 2\na + b", "3"),
    ('"\\n"', "'\\n'"),
    ("'héllo wörld ✓ 🐍'", "'héllo wörld ✓ 🐍'"),
    ("1/0", Raises("ZeroDivisionError")),
    ("raise ValueError('bad')", Raises("ValueError")),
    ("import asyncio\nawait asyncio.sleep(0) or 7", "7"),
    ("await asyncio.sleep(0) or 7;", None),
    ("async def co():\n    return 8\nawait co()", "8"),
    ("class C:\n    pass", None),
    ("import functools\n@functools.lru_cache()\ndef g(n):\n    return n * 2", None),
    ("g(21)", "42"),
    ("_", "42"),
    ("[i * i for i in range(4)]", "[0, 1, 4, 9]"),
    ("(w := 3)", "3"),
    ("w", "3"),
    ("x = 1;", None),
    ("'a;'", "'a;'"),
    ("'a;'  # ; in a comment", "'a;'"),
    ("text = 'a;b' ; text", "'a;b'"),
    ("x = 1; x + 1", "2"),
    ("x = 1; x + 1;", None),
    ("(2 +\n 2)", "4"),
    ("(2 +\n 2);", None),
    ("(2 +  # comment\n 2)  # ;", "4"),
    ("# only a comment", None),
    ("", None),
    ("b'bytes'", "b'bytes'"),
    ("3 == 3", "True"),
    ("'''tri\nple'''", "'tri\\nple'"),
    ("items = [1]\nitems.append(2)", None),
    ("items", "[1, 2]"),
    ("del items", None),
    ("__name__", "'__main__'"),
]


class DisplayTest(KernelTestCase):
    def test_display_cases(self):
        self.assertGreaterEqual(len(DISPLAY_CASES), 30)
        for code, expected in DISPLAY_CASES:
            with self.subTest(code=code):
                reply = self.kernel.execute(code)
                if isinstance(expected, Raises):
                    self.assertEqual(reply.status, "error")
                    self.assertEqual(reply.error["type"], expected)
                    self.assertIsNone(reply.value)
                    continue
                self.assertEqual(reply.status, "ok", reply.error)
                self.assertIsNone(reply.error)
                if isinstance(expected, Prints):
                    self.assertEqual(reply.stdout, expected.stdout)
                    expected = expected.value
                if isinstance(expected, Prefix):
                    self.assertTrue(reply.value.startswith(expected), reply.value)
                else:
                    self.assertEqual(reply.value, expected)

    def test_result_shape(self):
        reply = self.run_ok("print('hi')\n1")
        result = reply.result
        self.assertEqual(set(result), {"id", "event", "status", "value", "error", "duration_ms",
                                       "files", "sizes", "removed", "dropped", "figures_dropped"})
        self.assertIsInstance(result["duration_ms"], int)
        self.assertEqual(result["dropped"], {"stdout": 0, "stderr": 0})
        self.assertEqual(result["figures_dropped"], 0)
        stream = reply.events[0]
        self.assertEqual(stream, {"id": result["id"], "event": "stream", "name": "stdout",
                                  "text": "hi\n"})

    def test_state_persists(self):
        self.run_ok("counter = 10\nimport collections\ndef bump(n):\n    return n + 1")
        self.assertEqual(self.run_ok("counter = bump(counter)\ncounter").value, "11")
        self.assertEqual(self.run_ok("collections.Counter('aa')['a']").value, "2")

    def test_user_classes_pickle_through_main(self):
        reply = self.run_ok("import pickle\nclass P:\n    pass\n"
                            "type(pickle.loads(pickle.dumps(P()))).__name__")
        self.assertEqual(reply.value, "'P'")

    def test_large_repr_is_capped(self):
        reply = self.run_ok("'x' * 5000", output_limit=100)
        self.assertTrue(reply.value.startswith("'xxx"))
        self.assertIn("more characters", reply.value)
        self.assertLess(len(reply.value), 200)


class ErrorTest(KernelTestCase):
    def test_syntax_error_has_line_and_caret(self):
        reply = self.run_error("x = 1\nif x\n    y = 2\n", "SyntaxError")
        self.assertIn("line 2", reply.error["message"])
        self.assertIn("if x", reply.error["traceback"])
        self.assertIn("^", reply.error["traceback"])
        self.assertIsNone(reply.value)

    def test_unclosed_bracket(self):
        reply = self.run_error("a = 1\nb = (1,\n", "SyntaxError")
        self.assertIn("line 2", reply.error["message"])

    def test_compiler_syntax_error_shows_source_line(self):
        reply = self.run_error("x = 1\nreturn x", "SyntaxError")
        self.assertIn("line 2", reply.error["message"])
        self.assertIn("return x", reply.error["traceback"])

    def test_indentation_error(self):
        reply = self.run_error("if True:\nprint(1)", "IndentationError")
        self.assertIn("line 2", reply.error["message"])

    def test_null_character_in_code(self):
        reply = self.run_error("x = 1\ny = 'a\0b'", "SyntaxError")
        self.assertIn("null", reply.error["message"])
        self.assertIn("line 2", reply.error["message"])
        self.assertEqual(self.run_ok("1 + 1").value, "2")

    def test_traceback_has_only_user_frames(self):
        reply = self.run_error("a = 1\nb = 2\nc = a / 0\n", "ZeroDivisionError")
        tb = reply.error["traceback"]
        self.assertTrue(tb.startswith("Traceback (most recent call last):\n"), tb)
        self.assertEqual(tb.count('File "'), 1, tb)
        self.assertRegex(tb, r'File "<cell-\d+>", line 3, in <module>\n    c = a / 0')
        self.assertTrue(tb.rstrip().endswith("ZeroDivisionError: division by zero"), tb)
        self.assertEqual(reply.error["message"], "division by zero")

    def test_traceback_into_function_from_earlier_cell(self):
        self.run_ok("def boom(n):\n    m = n\n    return m / 0")
        reply = self.run_error("y = 1\nboom(y)", "ZeroDivisionError")
        tb = reply.error["traceback"]
        self.assertRegex(tb, r'line 2, in <module>\n    boom\(y\)')
        self.assertRegex(tb, r'line 3, in boom\n    return m / 0')
        self.assertEqual(tb.count('File "'), 2, tb)

    def test_library_frames_are_kept(self):
        tb = self.run_error("import json\njson.loads('{')", "JSONDecodeError").error["traceback"]
        self.assertIn("json", tb.split("\n", 3)[3])
        self.assertGreater(tb.count('File "'), 1)

    def test_chained_exceptions(self):
        code = ("try:\n    1/0\nexcept ZeroDivisionError as e:\n"
                "    raise ValueError('wrapped') from e")
        tb = self.run_error(code, "ValueError").error["traceback"]
        self.assertIn("ZeroDivisionError", tb)
        self.assertIn("direct cause", tb)

    def test_failing_repr(self):
        code = "class R:\n    def __repr__(self):\n        raise RuntimeError('no repr')\nR()"
        reply = self.run_error(code, "RuntimeError")
        tb = reply.error["traceback"]
        self.assertIn("__repr__", tb)
        self.assertNotIn("displayhook", tb)

    def test_input_fails_fast(self):
        started = time.monotonic()
        reply = self.run_error("name = input('name? ')", "EOFError")
        self.assertIn("not supported in the sandbox", reply.error["message"])
        self.assertLess(time.monotonic() - started, 5)

    def test_stdin_is_empty(self):
        self.assertEqual(self.run_ok("import sys\nsys.stdin.read()").value, "''")

    def test_subprocess_cannot_read_requests(self):
        # Both requests go out at once; a child reading fd 0 would swallow the second.
        first = json.dumps({"id": "cat", "op": "execute",
                            "code": "import subprocess\nsubprocess.run(['cat']).returncode"})
        second = json.dumps({"id": "after-cat", "op": "execute", "code": "'still here'"})
        self.kernel.send_raw((first + "\n" + second + "\n").encode())
        self.assertEqual(self.kernel.collect("cat").value, "0")
        self.assertEqual(self.kernel.collect("after-cat").value, "'still here'")

    def test_sys_exit_ends_cell_not_kernel(self):
        code = "import sys\nprint('before')\nsys.exit(3)\nprint('after')"
        reply = self.run_error(code, "SystemExit")
        self.assertEqual(reply.error["message"], "3")
        self.assertEqual(reply.stdout, "before\n")
        self.assertEqual(self.run_ok("1 + 1").value, "2")
        self.assertEqual(self.run_error("raise SystemExit(5)", "SystemExit").error["message"], "5")
        self.assertEqual(self.run_error("exit(4)", "SystemExit").error["message"], "4")
        self.assertEqual(self.run_error("quit('bye')", "SystemExit").error["message"], "bye")
        # exit() closes sys.stdin; the kernel must hand the next cell a fresh one.
        self.assertEqual(self.run_ok("import sys\nsys.stdin.read()").value, "''")

    def test_forked_child_does_not_answer(self):
        reply = self.run_ok("import os\npid = os.fork()\n'child' if pid == 0 else 'parent'")
        self.assertEqual(reply.value, "'parent'")
        self.assertEqual(self.run_ok("os.waitpid(pid, 0)[1]").value, "0")

    def test_sys_exit_zero_is_ok(self):
        self.assertIsNone(self.run_ok("import sys\nsys.exit()").error)
        self.assertIsNone(self.run_ok("sys.exit(0)").error)


class OutputTest(KernelTestCase):
    def test_stdout_and_stderr(self):
        reply = self.run_ok("import sys\nprint('out')\nprint('err', file=sys.stderr)")
        self.assertEqual(reply.stdout, "out\n")
        self.assertEqual(reply.stderr, "err\n")

    def test_subprocess_and_fd_output_captured(self):
        reply = self.run_ok("import os, subprocess\n"
                            "_ = os.system('echo from-system')\n"
                            "subprocess.run(['echo', 'from-subprocess'])\n"
                            "subprocess.run('echo to-stderr >&2', shell=True)\n"
                            "os.write(1, b'raw fd\\n')\n"
                            "None")
        self.assertEqual(reply.stdout, "from-system\nfrom-subprocess\nraw fd\n")
        self.assertEqual(reply.stderr, "to-stderr\n")

    def test_print_and_subprocess_keep_order(self):
        reply = self.run_ok("import os\nprint('first')\n_ = os.system('echo second')\n"
                            "print('third')")
        self.assertEqual(reply.stdout, "first\nsecond\nthird\n")

    def test_invalid_utf8_becomes_replacement_char(self):
        reply = self.run_ok("import sys\nsys.stdout.buffer.write(b'ok \\xff\\xfe end\\n')\nNone")
        self.assertEqual(reply.stdout, "ok \ufffd\ufffd end\n")

    def test_split_multibyte_character(self):
        reply = self.run_ok("import os, time\nos.write(1, b'\\xe2\\x82')\ntime.sleep(0.2)\n"
                            "os.write(1, b'\\xac \\xf0\\x9f')\ntime.sleep(0.2)\n"
                            "os.write(1, b'\\x90\\x8d\\n')\n"
                            "None")
        self.assertEqual(reply.stdout, "€ 🐍\n")

    def test_unicode_output(self):
        text = "naïve ☕ 🐍 日本"
        self.assertEqual(self.run_ok("print(%r)" % text).stdout, text + "\n")

    def test_flood_is_capped_and_fast(self):
        started = time.monotonic()
        reply = self.run_ok("import sys\nsys.stdout.write('x' * 10_000_000)\nNone")
        self.assertLess(time.monotonic() - started, 10)
        self.assertEqual(len(reply.stdout), 1 << 20)
        self.assertEqual(reply.result["dropped"], {"stdout": 10_000_000 - (1 << 20), "stderr": 0})
        self.assertEqual(self.run_ok("print('calm')").stdout, "calm\n")

    def test_limit_given_as_float(self):
        # Qt's JSON writer sends every number as a double.
        reply = self.run_ok("print('x' * 100)", output_limit=10.0, timeout=5.0)
        self.assertEqual(reply.stdout, "x" * 10)
        self.assertEqual(reply.result["dropped"]["stdout"], 91)

    def test_many_prints_with_small_limit(self):
        reply = self.run_ok("for i in range(100000):\n    print('line', i)", output_limit=1000)
        self.assertEqual(len(reply.stdout), 1000)
        self.assertTrue(reply.stdout.startswith("line 0\nline 1\n"))
        self.assertGreater(reply.result["dropped"]["stdout"], 500000)

    def test_stream_events_precede_result(self):
        reply = self.run_ok("import sys\nfor i in range(3):\n    print(i)\n    sys.stdout.flush()\n"
                            "print('tail', end='')\n42")
        kinds = [e["event"] for e in reply.events]
        self.assertEqual(kinds[-1], "result")
        self.assertEqual(set(kinds[:-1]), {"stream"})
        self.assertEqual(reply.stdout, "0\n1\n2\ntail")
        self.assertEqual(reply.value, "42")

    def test_output_streams_while_running(self):
        code = "import time\nprint('early')\ntime.sleep(1)\n'done'"
        rid = self.kernel.request("execute", code=code)
        first = self.kernel.next_event()
        first_at = time.monotonic()
        self.assertEqual((first["id"], first["event"], first["text"]), (rid, "stream", "early\n"))
        reply = self.kernel.collect(rid)
        self.assertGreater(time.monotonic() - first_at, 0.5)
        self.assertEqual(reply.value, "'done'")

    def test_closing_stdout(self):
        self.run_ok("import sys\nsys.stdout.close()")
        self.assertEqual(self.run_ok("print('back')").stdout, "back\n")

    def test_closing_fd_1(self):
        self.run_ok("import os\nos.close(1)")
        reply = self.run_ok("import os\nprint('again')\n_ = os.system('echo shell')")
        self.assertEqual(reply.stdout, "again\nshell\n")

    def test_replacing_sys_stdout(self):
        reply = self.run_ok("import io, sys\nsys.stdout = io.StringIO()\nprint('hidden')")
        self.assertEqual(reply.stdout, "")
        self.assertEqual(self.run_ok("print('visible')").stdout, "visible\n")

    def test_redirecting_fd_2(self):
        self.run_ok("import os\nos.dup2(os.open(os.devnull, os.O_WRONLY), 2)")
        self.assertEqual(self.run_ok("import sys\nprint('e', file=sys.stderr)").stderr, "e\n")


class CodeShapeTest(KernelTestCase):
    def test_one_megabyte_of_code(self):
        code = "total = 0\n" + "total += 1  # padding to make the cell large\n" * 25000 + "total"
        self.assertGreater(len(code), 1 << 20)
        self.assertEqual(self.run_ok(code).value, "25000")

    def test_crlf_line_endings(self):
        self.assertEqual(self.run_ok("a = 1\r\nb = 2\r\na + b\r\n").value, "3")
        tb = self.run_error("a = 1\r\nb = 2\r\n1/0\r\n", "ZeroDivisionError").error["traceback"]
        self.assertIn("line 3", tb)

    def test_all_kinds_of_quotes_and_backslashes(self):
        literal = ('s = """double "quoted" and \'single\' \\\\ backslash \\t tab"""\n'
                   "t = '''it's \"fine\"'''\n"
                   "u = r'raw \\d+\\n'\n"
                   'v = f"{s!r}{t}{u}"\n'
                   "(s, t, u, v, '\\'', \"\\\"\", '\\\\')")
        namespace = {}
        exec(literal.rsplit("\n", 1)[0], namespace)
        expected = repr(eval(literal.rsplit("\n", 1)[1], namespace))
        self.assertEqual(self.run_ok(literal).value, expected)

    def test_tabs_and_unicode_identifiers(self):
        reply = self.run_ok("if True:\n\tvalor_café = '☕🐍'\nvalor_café")
        self.assertEqual(reply.value, "'☕🐍'")

    def test_control_characters_in_strings(self):
        reply = self.run_ok("s = 'a\\x00b\\x1bc\\u2028d'\nprint(s)\ns")
        self.assertEqual(reply.value, repr("a\x00b\x1bc\u2028d"))
        self.assertEqual(reply.stdout, "a\x00b\x1bc\u2028d\n")

    def test_deep_nesting_is_an_error_not_a_crash(self):
        reply = self.kernel.execute("x = " + "(" * 5000 + ")" * 5000)
        self.assertEqual(reply.status, "error")
        self.assertEqual(self.run_ok("2 * 3").value, "6")


class InterruptTest(KernelTestCase):
    def test_timeout_interrupts_and_keeps_state(self):
        self.run_ok("state = 'kept'")
        started = time.monotonic()
        reply = self.kernel.execute("while True:\n    pass", timeout=1)
        self.assertEqual((reply.status, reply.result["reason"]), ("interrupted", "timeout"))
        self.assertLess(time.monotonic() - started, 10)
        self.assertRegex(reply.error["traceback"], r'File "<cell-\d+>", line [12], in <module>')
        self.assertEqual(self.run_ok("state").value, "'kept'")

    def test_timeout_interrupts_sleep_and_except_exception(self):
        code = "import time\ntry:\n    time.sleep(30)\nexcept Exception:\n    pass"
        reply = self.kernel.execute(code, timeout=0.5)
        self.assertEqual((reply.status, reply.result["reason"]), ("interrupted", "timeout"))

    def test_timeout_in_async_cell(self):
        reply = self.kernel.execute("import asyncio\nawait asyncio.sleep(30)", timeout=0.5)
        self.assertEqual((reply.status, reply.result["reason"]), ("interrupted", "timeout"))
        self.assertEqual(self.run_ok("await asyncio.sleep(0) or 'loop fine'").value, "'loop fine'")

    def test_fast_cell_is_not_hit_by_its_timer(self):
        self.assertEqual(self.run_ok("1", timeout=0.2).value, "1")
        time.sleep(0.4)
        self.assertEqual(self.run_ok("2").value, "2")

    def test_sigint_interrupts_running_code(self):
        for code in ("import time\nprint('started', flush=True)\ntime.sleep(30)",
                     "print('started', flush=True)\nwhile True:\n    pass"):
            with self.subTest(code=code):
                rid = self.kernel.request("execute", code=code)
                event = self.kernel.next_event()
                self.assertEqual((event["id"], event["text"]), (rid, "started\n"))
                os.kill(self.kernel.proc.pid, signal.SIGINT)
                reply = self.kernel.collect(rid)
                self.assertEqual((reply.status, reply.result["reason"]),
                                 ("interrupted", "interrupt"))
                self.assertEqual(reply.error["type"], "KeyboardInterrupt")
                self.assertIn("<cell-", reply.error["traceback"])
        self.assertEqual(self.run_ok("'alive'").value, "'alive'")

    def test_sigint_while_idle_is_harmless(self):
        self.run_ok("idle_state = 1")
        for _ in range(3):
            os.kill(self.kernel.proc.pid, signal.SIGINT)
            time.sleep(0.1)
        self.assertIsNone(self.kernel.proc.poll())
        self.assertEqual(self.run_ok("idle_state + 1").value, "2")

    def test_user_handler_does_not_outlive_cell(self):
        self.run_ok("import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)")
        os.kill(self.kernel.proc.pid, signal.SIGINT)
        time.sleep(0.2)
        self.assertEqual(self.run_ok("'survived'").value, "'survived'")


class FilesTest(KernelTestCase):
    def test_new_changed_and_unchanged_files(self):
        for code in ("open('new.txt', 'w').write('x')", "open('new.txt', 'a').write('yy')"):
            self.assertEqual(self.run_ok(code).result["files"], ["new.txt"])
        self.assertEqual(self.run_ok("1").result["files"], [])
        reply = self.run_ok("import os\nos.makedirs('sub/deeper', exist_ok=True)\n"
                            "open('sub/deeper/b.csv', 'w').write('1')\n"
                            "open('sub/a.csv', 'w').write('2')")
        self.assertEqual(reply.result["files"], ["sub/a.csv", "sub/deeper/b.csv"])
        self.assertEqual(reply.result["removed"], [])

    def test_removed_files(self):
        self.run_ok("import os\nos.makedirs('gone', exist_ok=True)\n"
                    "open('gone.txt', 'w').write('x')\nopen('gone/also.txt', 'w').write('y')")
        reply = self.run_ok("os.remove('gone.txt')\nos.remove('gone/also.txt')\nos.rmdir('gone')")
        self.assertEqual(reply.result["removed"], ["gone.txt", "gone/also.txt"])
        self.assertEqual(reply.result["files"], [])

    def test_cwd_is_data_dir(self):
        value = self.run_ok("import os\nos.getcwd()").value
        self.assertEqual(os.path.realpath(eval(value)), os.path.realpath(self.kernel.data_dir))


class ChannelTest(KernelTestCase):
    """A remote engine's files on the kernel's channel: send_files and receive_files."""

    def events_until(self, rid, kind):
        events = []
        while True:
            event = self.kernel.next_event()
            if event.get("id") == rid:
                events.append(event)
                if event["event"] == kind:
                    return events

    def test_sizes_with_the_result(self):
        reply = self.run_ok("open('sized.bin', 'wb').write(bytes(1234))")
        self.assertEqual(reply.result["sizes"], {"sized.bin": 1234})

    def test_send_files_as_a_tar_stream(self):
        import base64
        import io
        import tarfile
        self.run_ok("import os\nos.makedirs('out', exist_ok=True)\n"
                    "open('out/big.bin', 'wb').write(bytes(range(256)) * 8192)\n"
                    "os.symlink('/etc/passwd', 'link.txt')\nos.mkfifo('pipe')")
        rid = self.kernel.request("send_files", files=["out/big.bin", "link.txt", "pipe", "missing", "../up"])
        events = self.events_until(rid, "files_sent")
        pieces = [e for e in events if e["event"] == "file_data"]
        self.assertGreater(len(pieces), 1)  # 2 MiB come in pieces
        data = b"".join(base64.b64decode(e["data"]) for e in pieces)
        members = {m.name: m for m in tarfile.open(fileobj=io.BytesIO(data)).getmembers()}
        self.assertEqual(set(members), {"out/big.bin", "link.txt", "pipe"})
        self.assertTrue(members["out/big.bin"].isreg())
        self.assertEqual(members["out/big.bin"].size, 256 * 8192)
        self.assertTrue(members["link.txt"].issym())
        self.assertTrue(members["pipe"].isfifo())
        self.assertEqual(self.run_ok("'next'").value, "'next'")

    def test_receive_files_writes_them_whole(self):
        self.run_ok("open('old.txt', 'w').write('old')")
        request = {"id": "up1", "op": "receive_files", "remove": ["old.txt", "../../etc/x"],
                   "files": [{"name": "in/a.csv", "size": 4, "mtime": 1000000000},
                             {"name": "../escape.txt", "size": 3},
                             {"name": "b.txt", "size": 2}]}
        self.kernel.send_raw(json.dumps(request).encode() + b"\n" + b"a,b\n" + b"out" + b"ok")
        received = self.events_until("up1", "files_received")[-1]
        self.assertEqual(received["failed"], ["../escape.txt"])
        value = self.run_ok("import os\n(open('in/a.csv').read(), open('b.txt').read(), "
                            "os.path.exists('old.txt'), os.path.getmtime('in/a.csv'))").value
        self.assertEqual(value, "('a,b\\n', 'ok', False, 1000000000.0)")
        self.assertFalse(os.path.exists(os.path.join(self.kernel.data_dir, "..", "escape.txt")))

class RichDisplayTest(KernelTestCase):
    def test_repr_png_object_without_matplotlib(self):
        reply = self.run_ok(TINY_PNG_CODE)
        self.assertEqual(reply.value, "<Dot>")
        self.assertEqual(len(reply.displays), 1)
        self.assert_png(reply.displays[0])
        self.assertEqual(reply.result["files"], [])

    def test_repr_html_object_is_shown_as_text(self):
        reply = self.run_ok("class H:\n    def _repr_html_(self):\n        return '<b>hi</b>'\nH()")
        self.assertEqual(reply.displays, [])  # never live HTML
        self.assertEqual(reply.stdout, "hi\n")
        self.assertTrue(reply.value.startswith("<__main__.H object"))

    def test_html_beyond_the_output_limit_is_not_sent(self):
        reply = self.run_ok("class H:\n    def _repr_html_(self):\n        return '<p>' * 5000\nH()",
                            output_limit=1000)
        self.assertEqual(reply.displays, [])
        self.assertIn("15000 characters are more than the 1000 allowed", reply.stderr)

    def test_huge_png_from_repr_png_is_refused(self):
        code = TINY_PNG_CODE.replace("1, 1, 8, 2", "60000, 60000, 8, 2")
        reply = self.run_ok(code)
        self.assertEqual(reply.displays, [])
        self.assertIn("60000 x 60000 pixels, more than the 8000 x 8000 allowed", reply.stderr)
        self.assertEqual(self.run_ok("'usable'").value, "'usable'")

    def test_images_beyond_max_figures_are_counted_not_saved(self):
        self.run_ok(TINY_PNG_CODE)
        before = self.figure_files()
        reply = self.run_ok("import sys\nfor _ in range(5):\n    sys.displayhook(Dot())",
                            max_figures=2)
        self.assertEqual(len(reply.displays), 2)
        self.assertEqual(reply.result["figures_dropped"], 3)
        self.assertEqual(len(self.figure_files() - before), 2)


# A 1x1 PNG built by hand, so this test needs neither matplotlib nor PIL.
TINY_PNG_CODE = '''
import struct, zlib
def chunk(kind, data):
    crc = zlib.crc32(kind + data) & 0xffffffff
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)
def tiny_png():
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\\x00\\xff\\x00\\x00")) + chunk(b"IEND", b""))
class Dot:
    def _repr_png_(self):
        return tiny_png()
    def __repr__(self):
        return "<Dot>"
Dot()
'''


class ProtocolTest(unittest.TestCase):
    def setUp(self):
        self.kernel = KernelProcess()

    def tearDown(self):
        self.kernel.close()

    def assert_protocol_error(self, reply_event, rid):
        self.assertEqual(reply_event["id"], rid)
        self.assertEqual(reply_event["event"], "result")
        self.assertEqual(reply_event["status"], "error")
        self.assertEqual(reply_event["error"]["type"], "ProtocolError")

    def test_ready_event(self):
        ready = self.kernel.ready
        self.assertEqual(ready["event"], "ready")
        self.assertEqual(ready["python"], "%d.%d.%d" % sys.version_info[:3])
        self.assertEqual(ready["pid"], self.kernel.proc.pid)
        self.assertLess(self.kernel.startup_seconds, 3.0)

    def test_bad_requests_get_protocol_errors(self):
        k = self.kernel
        k.send({"id": "u1", "op": "frobnicate"})
        self.assert_protocol_error(k.next_event(), "u1")
        k.send_raw(b"this is not json\n")
        self.assert_protocol_error(k.next_event(), None)
        k.send_raw(b"[1, 2]\n")
        self.assert_protocol_error(k.next_event(), None)
        k.send_raw(b'{"id": "bad-utf8", "code": "\xff"}\n')
        self.assert_protocol_error(k.next_event(), None)
        k.send({"id": "nocode", "op": "execute"})
        self.assert_protocol_error(k.next_event(), "nocode")
        k.send({"id": "badtimeout", "op": "execute", "code": "1", "timeout": "soon"})
        self.assert_protocol_error(k.next_event(), "badtimeout")
        k.send_raw(b'{"id": "inf", "op": "execute", "code": "1", "timeout": Infinity}\n')
        self.assert_protocol_error(k.next_event(), "inf")
        k.send({"id": "badfigures", "op": "execute", "code": "1", "max_figures": -1})
        self.assert_protocol_error(k.next_event(), "badfigures")
        self.assertEqual(k.execute("'still running'").value, "'still running'")

    def test_preload(self):
        rid = self.kernel.request("preload", modules=["json", "no_such_module_xyz"])
        reply = self.kernel.collect(rid)
        self.assertEqual(reply.status, "ok")
        self.assertIn("json", reply.value)
        self.assertIn("no_such_module_xyz", reply.value)
        self.assertEqual(self.kernel.execute("import sys\n'json' in sys.modules").value, "True")

    def test_shutdown_exits_zero(self):
        self.kernel.send({"op": "shutdown"})
        self.assertEqual(self.kernel.wait_exit(), 0)

    def test_eof_exits_zero(self):
        self.kernel.proc.stdin.close()
        self.assertEqual(self.kernel.wait_exit(), 0)

    def test_shutdown_with_busy_user_thread(self):
        self.kernel.execute("import threading, time\n"
                            "threading.Thread(target=time.sleep, args=(60,)).start()")
        self.kernel.send({"op": "shutdown"})
        self.assertEqual(self.kernel.wait_exit(), 0)

    def test_stray_output_after_result_keeps_protocol_valid(self):
        self.kernel.execute("import threading, time\n"
                            "late = lambda: (time.sleep(0.3), print('late'))\n"
                            "threading.Thread(target=late).start()")
        event = self.kernel.next_event()
        self.assertEqual((event["id"], event["event"], event["text"]), (None, "stream", "late\n"))

    def test_environment_without_home(self):
        env = {k: v for k, v in os.environ.items() if k not in ("HOME", "MPLCONFIGDIR")}
        kernel = KernelProcess(env=env)
        try:
            reply = kernel.execute("import os\n(os.access(os.environ['MPLCONFIGDIR'], os.W_OK), "
                                   "os.environ['MPLBACKEND'].startswith('module://'))")
            self.assertEqual(reply.value, "(True, True)")
        finally:
            kernel.close()


class SourceArgumentTest(KernelTestCase):
    """The host passes the kernel's source with python3 -c; nothing may depend on __file__."""

    @classmethod
    def setUpClass(cls):
        cls.kernel = KernelProcess(via_source=True)

    def test_runs_from_source_argument(self):
        self.assertEqual(self.kernel.ready["event"], "ready")
        self.assertEqual(self.run_ok("print('hi')\n6 * 7").value, "42")

    def test_traceback_has_only_user_frames(self):
        self.run_ok("def inner():\n    raise KeyError('k')")
        tb = self.run_error("inner()", "KeyError").error["traceback"]
        self.assertEqual(tb.count('File "'), 2, tb)
        self.assertNotIn("<string>", tb)

    def test_user_exec_frames_are_kept(self):
        tb = self.run_error("exec('x = 1\\n1/0')", "ZeroDivisionError").error["traceback"]
        self.assertIn('File "<string>", line 2', tb)


@needs("matplotlib")
class FigureTest(KernelTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # The first import may build matplotlib's font cache.
        reply = cls.kernel.execute("import matplotlib.pyplot as plt", wait=120)
        assert reply.status == "ok", reply.error

    def test_backend_is_forced(self):
        backend = self.run_ok("import matplotlib\nmatplotlib.get_backend()").value
        self.assertIn("_sandpiper", backend)

    def test_subplots_without_show(self):
        reply = self.run_ok("fig, ax = plt.subplots()\nax.plot([1, 2, 3]);")
        self.assertEqual(len(reply.displays), 1)
        self.assert_png(reply.displays[0])
        self.assertEqual(reply.result["files"], [])
        self.assertEqual(self.run_ok("plt.get_fignums()").value, "[]")

    def test_show_emits_at_once_and_not_again(self):
        reply = self.run_ok("plt.plot([1, 2])\nplt.show()\nprint('after show')")
        kinds = [(e["event"], e.get("text")) for e in reply.events]
        self.assertEqual(kinds, [("display", None), ("stream", "after show\n"), ("result", None)])
        self.assert_png(reply.displays[0])

    def test_output_before_show_comes_first(self):
        reply = self.run_ok("print('before')\nplt.plot([1])\nplt.show()")
        self.assertEqual([e["event"] for e in reply.events], ["stream", "display", "result"])

    def test_two_figures(self):
        reply = self.run_ok("plt.figure()\nplt.plot([1])\nplt.figure()\nplt.plot([2]);")
        self.assertEqual(len(reply.displays), 2)
        self.assertNotEqual(reply.displays[0]["path"], reply.displays[1]["path"])
        for display in reply.displays:
            self.assert_png(display)

    def test_figure_as_last_value(self):
        reply = self.run_ok("fig = plt.figure()\nfig.gca().plot([1, 2])\nfig")
        self.assertTrue(reply.value.startswith("<Figure"), reply.value)
        self.assertEqual(len(reply.displays), 1)
        self.assert_png(reply.displays[0])

    def test_standalone_figure_as_last_value(self):
        reply = self.run_ok("from matplotlib.figure import Figure\nf = Figure()\n"
                            "f.subplots().plot([3, 1])\nf")
        self.assertEqual(len(reply.displays), 1)
        self.assert_png(reply.displays[0])

    def test_figures_shown_even_when_cell_fails(self):
        reply = self.kernel.execute("plt.plot([1])\n1/0")
        self.assertEqual(reply.status, "error")
        self.assertEqual(len(reply.displays), 1)

    def test_at_most_max_figures_are_saved_the_rest_counted(self):
        before = self.figure_files()
        reply = self.run_ok("for i in range(25):\n    plt.figure(figsize=(1, 1))\n    plt.plot([i])")
        self.assertEqual(len(reply.displays), 20)  # the default
        self.assertEqual(reply.result["figures_dropped"], 5)
        self.assertEqual(len(self.figure_files() - before), 20)
        self.assertEqual(self.run_ok("plt.get_fignums()").value, "[]")
        reply = self.run_ok("for i in range(4):\n    plt.figure()\n    plt.plot([i])\nplt.show()",
                            max_figures=1)
        self.assertEqual((len(reply.displays), reply.result["figures_dropped"]), (1, 3))

    def test_a_60000_pixel_figure_is_refused_with_a_clear_error(self):
        reply = self.run_ok("fig = plt.figure(figsize=(600, 600))\nplt.plot([1, 2])")
        self.assertEqual(reply.displays, [])
        self.assertIn("66000 x 66000 pixels, more than the 8000 x 8000 allowed", reply.stderr)
        self.assertIn("figsize or dpi", reply.stderr)
        self.assertEqual(self.run_ok("plt.get_fignums()").value, "[]")

    def test_text_far_outside_the_axes_does_not_make_a_huge_image(self):
        reply = self.run_ok("fig = plt.figure()\nplt.plot([1, 2])\n"
                            "plt.text(300, 300, 'far', transform=fig.transFigure)\nfig")
        self.assertEqual(reply.displays, [])
        self.assertIn("more than the 8000 x 8000 allowed", reply.stderr)
        self.assertNotIn("MemoryError", reply.stderr)

    @needs("pandas")
    def test_pandas_plot(self):
        reply = self.run_ok("import pandas as pd\npd.DataFrame({'a': [1, 3, 2]}).plot()")
        self.assertEqual(len(reply.displays), 1)
        self.assert_png(reply.displays[0])

    @needs("seaborn")
    def test_seaborn_plot(self):
        reply = self.run_ok("import seaborn as sns\nsns.lineplot(x=[1, 2, 3], y=[3, 1, 2]);")
        self.assertEqual(len(reply.displays), 1)
        self.assert_png(reply.displays[0])


@needs("pandas")
class PandasTest(KernelTestCase):
    def test_dataframe_value_has_table_and_text(self):
        reply = self.run_ok("import pandas as pd\npd.DataFrame({'col': [1, 2]})")
        self.assertIn("col", reply.value)
        self.assertEqual(len(reply.displays), 1)
        self.assertEqual(reply.tables[0]["columns"], ["col"])
        self.assertEqual(reply.tables[0]["rows"], [[1], [2]])
        self.assertIs(reply.displays[0].get("of_value"), True)

    def test_only_the_values_displays_are_marked(self):
        reply = self.run_ok("import pandas as pd\ndf = pd.DataFrame({'col': [1]})\n"
                            "display(df)\ndf.rename(columns={'col': 'other'})")
        self.assertEqual([d.get("of_value", False) for d in reply.displays], [False, True])
        self.assertEqual(reply.tables[1]["columns"], ["other"])
        reply = self.run_ok("display(pd.DataFrame({'a': [1]}))\n5")
        self.assertEqual([d.get("of_value", False) for d in reply.displays], [False])
        self.assertEqual(reply.value, "5")

    def test_preload_science_stack(self):
        reply = self.kernel.collect(self.kernel.request(
            "preload", modules=["numpy", "pandas", "matplotlib.pyplot"]), wait=120)
        self.assertEqual(reply.status, "ok")
        self.assertNotIn("failed", reply.value)


@needs("PIL")
class PillowTest(KernelTestCase):
    def test_huge_pil_image_is_refused(self):
        reply = self.run_ok("from PIL import Image\nImage.new('L', (9000, 10))")
        self.assertEqual(reply.displays, [])
        self.assertIn("9000 x 10 pixels", reply.stderr)

    def test_pil_image_value(self):
        for mode in ("RGB", "CMYK"):
            with self.subTest(mode=mode):
                reply = self.run_ok("from PIL import Image\nImage.new(%r, (4, 4))" % mode)
                self.assertEqual(len(reply.displays), 1)
                self.assert_png(reply.displays[0])


class DisplayFunctionTest(KernelTestCase):
    def test_display_is_builtin_and_keeps_order_with_prints(self):
        reply = self.run_ok("print('a')\ndisplay(1, 'two')\nprint('b')\ndisplay([3])")
        self.assertEqual(reply.stdout, "a\n1\n'two'\nb\n[3]\n")
        self.assertIsNone(reply.value)

    def test_ipython_display_module(self):
        reply = self.run_ok("from IPython.display import display, Markdown, HTML, Image, JSON\n"
                            "print('before')\n"
                            "display(Markdown('# Title'))\n"
                            "print('after')\n"
                            "display(JSON({'a': [1, 2]}))")
        kinds = [(e["event"], e.get("mime") or e.get("text")) for e in reply.events]
        self.assertEqual(kinds[:2], [("stream", "before\n"), ("display", "text/markdown")])
        self.assertTrue(kinds[2][1].startswith("after\n"), kinds)
        self.assertEqual(reply.displays[0]["data"], "# Title")
        self.assertIn('"a": [', reply.stdout)

    def test_html_tables_become_tables_other_html_becomes_text(self):
        reply = self.run_ok(
            "from IPython.display import HTML, display\n"
            "display(HTML('<table><thead><tr><th>name</th><th>n</th></tr></thead>'\n"
            "             '<tbody><tr><td>a</td><td>1,200</td></tr><tr><td>b</td><td>2.5</td></tr>'\n"
            "             '</tbody></table>'))\n"
            "display(HTML('<p>Hello <b>world</b></p><script>alert(1)</script><style>p{}</style>'))")
        self.assertEqual(len(reply.tables), 1)
        table = reply.tables[0]
        self.assertEqual(table["columns"], ["name", "n"])
        self.assertEqual(table["rows"], [["a", 1200], ["b", 2.5]])
        self.assertFalse(table["exportable"])
        self.assertEqual(reply.stdout, "Hello world\n")
        self.assertNotIn("text/html", [d["mime"] for d in reply.displays])

    def test_repr_methods(self):
        reply = self.run_ok(
            "class R:\n"
            "    def _repr_svg_(self):\n"
            "        return '<svg xmlns=\"http://www.w3.org/2000/svg\"/>'\n"
            "class M:\n"
            "    def _repr_markdown_(self):\n"
            "        return ('**bold**', {})\n"
            "class J:\n"
            "    def _repr_json_(self):\n"
            "        return {'k': 1}\n"
            "display(R(), M(), J())")
        self.assertEqual([d["mime"] for d in reply.displays], ["image/svg+xml", "text/markdown"])
        self.assertEqual(reply.displays[1]["data"], "**bold**")
        self.assertIn('"k": 1', reply.stdout)

    @unittest.skipIf(importlib.util.find_spec("IPython") is not None,
                     "IPython's own Image sends base64 text, which the kernel does not take")
    def test_image_from_bytes_and_plain_objects(self):
        reply = self.run_ok(TINY_PNG_CODE.replace("Dot()", "")
                            + "from IPython.display import Image\n"
                            "display(Image(data=tiny_png()))\n"
                            "display(object)")
        self.assertEqual(len(reply.displays), 1)
        self.assert_png(reply.displays[0])
        self.assertEqual(reply.stdout, "<class 'object'>\n")

    def test_failing_repr_method_is_reported_not_raised(self):
        reply = self.run_ok("class Bad:\n    def _repr_markdown_(self):\n        raise ValueError('no')\n"
                            "display(Bad())\n'still here'")
        self.assertIn("could not display Bad", reply.stderr)
        self.assertEqual(reply.value, "'still here'")

    def test_markdown_as_last_value(self):
        reply = self.run_ok("from IPython.display import Markdown\nMarkdown('*x*')")
        self.assertEqual(reply.displays, [{"id": reply.result["id"], "event": "display",
                                           "mime": "text/markdown", "data": "*x*", "of_value": True}])


class MagicTest(KernelTestCase):
    def test_shell_lines(self):
        reply = self.run_ok("!echo from the shell\nprint('python')")
        self.assertEqual(reply.stdout, "from the shell\npython\n")

    def test_magic_text_inside_a_string_stays_text(self):
        reply = self.run_ok("!true\ntext = '''\n!not a command\n%not a magic\n'''\ntext")
        self.assertEqual(reply.value, repr("\n!not a command\n%not a magic\n"))

    def test_variables_expand_in_shell_lines(self):
        reply = self.run_ok("word = 'expanded'\n!echo {word.upper()} $word {nothing_here} $unknown")
        self.assertEqual(reply.stdout, "EXPANDED expanded {nothing_here}\n")

    def test_matplotlib_magic_is_accepted(self):
        self.assertEqual(self.run_ok("%matplotlib inline\n1 + 1").value, "2")

    def test_unknown_magic_is_a_clear_error(self):
        reply = self.run_error("%timeit sum(range(10))", "NameError")
        self.assertIn("only %pip and %matplotlib", reply.error["message"])

    def test_syntax_error_without_magics_is_unchanged(self):
        reply = self.run_error("x = (1,", "SyntaxError")
        self.assertNotIn("sandpiper", reply.error["message"])


def make_wheel(folder, name="sandpiper_demo", version="1.0", body="VALUE = 42\n"):
    """A pure-Python wheel built by hand: pip installs it like any other."""
    import base64
    import hashlib
    import zipfile
    dist = "%s-%s" % (name, version)
    files = {
        "%s/__init__.py" % name: body,
        "%s.dist-info/METADATA" % dist: "Metadata-Version: 2.1\nName: %s\nVersion: %s\n"
                                        % (name.replace("_", "-"), version),
        "%s.dist-info/WHEEL" % dist: "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                                     "Tag: py3-none-any\n",
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append("%s,sha256=%s,%d" % (path, digest.decode(), len(text.encode())))
    record.append("%s.dist-info/RECORD,," % dist)
    path = os.path.join(folder, "%s-py3-none-any.whl" % dist)
    with zipfile.ZipFile(path, "w") as wheel:
        for name_in_zip, text in files.items():
            wheel.writestr(name_in_zip, text)
        wheel.writestr("%s.dist-info/RECORD" % dist, "\n".join(record) + "\n")
    return path


class LocalIndex:
    """A package index on 127.0.0.1 serving one wheel: the network path without the internet."""

    def __init__(self, wheel):
        import http.server
        self.root = tempfile.mkdtemp(prefix="sandpiper-index-")
        project = os.path.join(self.root, "simple", "sandpiper-demo")
        os.makedirs(project)
        shutil.copy(wheel, project)
        with open(os.path.join(project, "index.html"), "w") as f:
            f.write('<a href="%s">%s</a>' % ((os.path.basename(wheel),) * 2))
        root = self.root

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=root, **kwargs)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/simple/" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        shutil.rmtree(self.root, ignore_errors=True)


@needs("pip")
class PackageTest(unittest.TestCase):
    """pip into the conversation's package folder: with a local index, and without network."""

    def setUp(self):
        self.data_dir = tempfile.mkdtemp(prefix="sandpiper-packages-")
        self.wheel = make_wheel(self.data_dir)
        self.index = LocalIndex(self.wheel)
        os.remove(self.wheel)

    def tearDown(self):
        self.index.close()
        shutil.rmtree(self.data_dir, ignore_errors=True)

    def kernel(self, network):
        env = dict(os.environ, SANDPIPER_NETWORK="1" if network else "0")
        kernel = KernelProcess(env=env, data_dir=self.data_dir)
        self.addCleanup(kernel.close)
        return kernel

    def test_pip_magic_installs_into_the_folder_and_imports_at_once(self):
        kernel = self.kernel(network=True)
        reply = kernel.execute("%%pip install --index-url %s sandpiper-demo\n"
                               "import sandpiper_demo\nsandpiper_demo.VALUE" % self.index.url, wait=120)
        self.assertEqual(reply.status, "ok", reply.error)
        self.assertEqual(reply.value, "42", reply.stdout + reply.stderr)
        self.assertIn("Successfully installed sandpiper-demo", reply.stdout)
        where = kernel.execute("import sandpiper_demo, os\nos.path.relpath(sandpiper_demo.__file__)").value
        self.assertTrue(eval(where).startswith(".sandpiper/python/lib/"), where)
        self.assertEqual(reply.result["files"], [])  # the package folder is not the user's files
        kernel.close()
        # A new kernel (an idle stop, a restart) finds what was installed.
        again = self.kernel(network=True)
        self.assertEqual(again.execute("import sandpiper_demo\nsandpiper_demo.VALUE").value, "42")

    def test_subprocess_pip_installs_into_the_same_folder(self):
        kernel = self.kernel(network=True)
        reply = kernel.execute(
            "import subprocess, sys\n"
            "done = subprocess.run([sys.executable, '-m', 'pip', 'install', '--index-url', %r,"
            " 'sandpiper-demo'], capture_output=True, text=True)\n"
            "print(done.returncode)\n"
            "import sandpiper_demo\nsandpiper_demo.VALUE" % self.index.url, wait=120)
        self.assertEqual(reply.status, "ok", reply.error)
        self.assertEqual((reply.stdout, reply.value), ("0\n", "42"))

    def test_without_network_pip_says_how_to_allow_it(self):
        kernel = self.kernel(network=False)
        for line in ("%pip install requests-toolbelt", "!pip install requests-toolbelt",
                     "!python3 -m pip install requests-toolbelt"):
            with self.subTest(line=line):
                started = time.monotonic()
                reply = kernel.execute(line)
                self.assertEqual(reply.status, "ok", reply.error)
                self.assertIn("Network in sandbox", reply.stderr)
                self.assertLess(time.monotonic() - started, 5)

    def test_local_wheel_installs_without_network(self):
        wheel = make_wheel(self.data_dir, name="offline_demo", body="VALUE = 7\n")
        kernel = self.kernel(network=False)
        reply = kernel.execute("%%pip install %s\nimport offline_demo\noffline_demo.VALUE"
                               % os.path.basename(wheel), wait=120)
        self.assertEqual(reply.value, "7", reply.stdout + reply.stderr)

    def test_package_that_does_not_exist(self):
        kernel = self.kernel(network=True)
        reply = kernel.execute("%%pip install --index-url %s no-such-package-xyz" % self.index.url,
                               wait=120)
        self.assertEqual(reply.status, "ok", reply.error)
        self.assertIn("No matching distribution found for no-such-package-xyz", reply.stdout + reply.stderr)


@needs("pandas")
class TableTest(KernelTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        reply = cls.kernel.execute("import pandas as pd, numpy as np", wait=120)
        assert reply.status == "ok", reply.error

    def table(self, code):
        reply = self.run_ok(code)
        self.assertEqual(len(reply.tables), 1, reply.events)
        return reply, reply.tables[0]

    def test_dataframe_head_shape_and_dtypes(self):
        reply, table = self.table("pd.DataFrame({'a': range(1000), 'b': ['x'] * 1000})")
        self.assertEqual(table["columns"], ["a", "b"])
        self.assertEqual(table["dtypes"], ["int64", "object"])
        self.assertEqual((table["total_rows"], table["total_columns"]), (1000, 2))
        self.assertEqual(len(table["rows"]), 200)
        self.assertEqual(table["rows"][199], [199, "x"])
        self.assertEqual(table["index_columns"], 0)
        self.assertTrue(table["exportable"])
        self.assertIn("[1000 rows x 2 columns]", reply.value)  # the model's text preview

    def test_dates_without_times_show_as_dates(self):
        _, table = self.table("pd.DataFrame({'d': pd.to_datetime(['2024-01-02', None])})")
        self.assertEqual(table["rows"], [["2024-01-02"], [None]])

    def test_series_display_and_print(self):
        reply = self.run_ok("s = pd.Series([1.5, 2.5], name='price')\nprint(s)\ndisplay(s)")
        self.assertIn("Name: price", reply.stdout)  # print is still text
        self.assertEqual(reply.tables[0]["columns"], ["price"])
        self.assertEqual(reply.tables[0]["kind"], "Series")

    def test_missing_and_special_values(self):
        _, table = self.table(
            "pd.DataFrame({'f': [np.nan, np.inf, -np.inf, 1.5],"
            " 't': pd.to_datetime(['2024-01-02 00:00:00', None, '2024-03-04 05:06:07', None]),"
            " 'o': [None, pd.NA, [1, {'k': b'x'}], b'\\xff\\x00'],"
            " 'big': [2 ** 62, 1, 2, 3], 'ok': [True, False, True, False]})")
        self.assertEqual([row[0] for row in table["rows"]], [None, "inf", "-inf", 1.5])
        self.assertEqual([row[1] for row in table["rows"]], ["2024-01-02 00:00:00", None,
                                                              "2024-03-04 05:06:07", None])
        self.assertEqual(table["rows"][0][2], None)
        self.assertEqual(table["rows"][1][2], None)
        self.assertEqual(table["rows"][2][2], "[1, {'k': b'x'}]")
        self.assertEqual(table["rows"][3][2], "b'\\xff\\x00'")
        self.assertEqual(table["rows"][0][3], str(2 ** 62))
        self.assertEqual([row[4] for row in table["rows"]], [True, False, True, False])

    def test_multiindex_and_names_that_are_not_strings(self):
        _, table = self.table(
            "idx = pd.MultiIndex.from_tuples([('a', 1), ('b', 2)], names=['k', None])\n"
            "cols = pd.MultiIndex.from_tuples([(2024, 'q1'), (2024, 'q2')])\n"
            "pd.DataFrame([[1, 2], [3, 4]], index=idx, columns=cols)")
        self.assertEqual(table["index_columns"], 2)
        self.assertEqual(table["columns"], ["k", "", "2024 / q1", "2024 / q2"])
        self.assertEqual(table["rows"], [["a", 1, 1, 2], ["b", 2, 3, 4]])
        self.assertEqual(table["total_columns"], 4)
        _, numbered = self.table("pd.DataFrame([[1, 2, 3]], columns=[0, ('a', 1), pd.Timestamp(2024, 1, 2)])")
        self.assertEqual(numbered["columns"], ["0", "a / 1", "2024-01-02 00:00:00"])

    def test_wide_and_long_frames_are_capped(self):
        started = time.monotonic()
        _, wide = self.table("pd.DataFrame(np.zeros((3, 10000)))")
        self.assertEqual((len(wide["columns"]), wide["total_columns"]), (100, 10000))
        _, long = self.table("pd.DataFrame({'x': np.arange(1000000)})")
        self.assertEqual((len(long["rows"]), long["total_rows"]), (200, 1000000))
        _, fat = self.table("pd.DataFrame({str(i): ['x' * 190] * 200 for i in range(20)})")
        self.assertLess(len(fat["rows"]), 200)
        self.assertLessEqual(len(json.dumps(fat)), 512 * 1024 + 2048)
        self.assertLess(time.monotonic() - started, 10)

    def test_styler_and_mixed_types(self):
        _, table = self.table("pd.DataFrame({'m': [1, 'two', 3.0, None]}).style")
        self.assertEqual([row[0] for row in table["rows"]], [1, "two", 3.0, None])

    def test_empty_frame(self):
        _, table = self.table("pd.DataFrame()")
        self.assertEqual((table["columns"], table["rows"], table["total_rows"]), ([], [], 0))

    def test_export_table_writes_the_whole_frame(self):
        _, table = self.table("big = pd.DataFrame({'x': range(5000)})\nbig")
        for fmt, name in (("csv", "big.csv"), ("xlsx", "big.xlsx")):
            with self.subTest(format=fmt):
                reply = self.kernel.collect(self.kernel.request(
                    "export_table", table=table["table_id"], format=fmt, path=name), wait=120)
                self.assertEqual(reply.status, "ok", reply.error)
                self.assertEqual(reply.result["files"], [name])
        self.assertEqual(self.run_ok("len(pd.read_csv('big.csv'))").value, "5000")
        self.assertEqual(self.run_ok("len(pd.read_excel('big.xlsx'))").value, "5000")

    def test_export_takes_a_new_name_and_never_follows_a_link(self):
        _, table = self.table("small = pd.DataFrame({'x': [1, 2]})\nsmall")
        # The code left a dangling link where the file would go, and a file with the next name.
        self.run_ok("import os\nos.symlink('/tmp/planted.csv', 'table-1.csv')\n"
                    "open('table-1 (2).csv', 'w').write('mine')")
        reply = self.kernel.collect(self.kernel.request(
            "export_table", table=table["table_id"], format="csv", path="table-1.csv"), wait=60)
        self.assertEqual(reply.status, "ok", reply.error)
        self.assertEqual(reply.result["value"], "table-1 (3).csv")
        self.assertEqual(self.run_ok("os.path.exists('/tmp/planted.csv')").value, "False")
        self.assertEqual(self.run_ok("open('table-1 (2).csv').read()").value, "'mine'")
        self.assertEqual(self.run_ok("len(pd.read_csv('table-1 (3).csv'))").value, "2")

    def test_a_cell_run_again_gives_its_tables_the_names_they_had(self):
        _, first = self.table("frame = pd.DataFrame({'x': [1, 2, 3]})\nframe")
        # Restoring a new kernel runs the cell again with the names its tables were shown under.
        rid = self.kernel.request("execute", code="frame = pd.DataFrame({'x': [4, 5]})\nframe",
                                  table_ids=[first["table_id"]])
        again = self.kernel.collect(rid, wait=60)
        self.assertEqual(again.status, "ok", again.error)
        self.assertEqual([t["table_id"] for t in again.tables], [first["table_id"]])
        reply = self.kernel.collect(self.kernel.request(
            "export_table", table=first["table_id"], format="csv", path="again.csv"), wait=60)
        self.assertEqual(reply.status, "ok", reply.error)
        self.assertEqual(self.run_ok("list(pd.read_csv('again.csv')['x'])").value, "[4, 5]")
        # A name that is none of the kernel's gets a new one; the next keeps its place.
        rid = self.kernel.request("execute", code="display(frame)\nframe",
                                  table_ids=["../x", first["table_id"]])
        again = self.kernel.collect(rid, wait=60)
        self.assertEqual(again.status, "ok", again.error)
        names = [t["table_id"] for t in again.tables]
        self.assertEqual(len(names), 2)
        self.assertRegex(names[0], r"^t-[0-9a-f]{8}-[0-9]+$")
        self.assertEqual(names[1], first["table_id"])
        rid = self.kernel.request("execute", code="1", table_ids="t-1")
        self.assertEqual(self.kernel.collect(rid).error["type"], "ProtocolError")

    def test_export_of_an_unknown_table_is_an_error(self):
        reply = self.kernel.collect(self.kernel.request(
            "export_table", table="t-gone-1", format="csv", path="x.csv"))
        self.assertEqual(reply.status, "error")
        self.assertIn("no longer in the kernel", reply.error["message"])
        rid = self.kernel.request("export_table", table="t-1", format="csv", path="../x.csv")
        self.assertEqual(self.kernel.collect(rid).error["type"], "ProtocolError")


@needs("pandas", "openpyxl", "pypdf", "docx", "PIL")
class DescribeTest(KernelTestCase):
    """What the model is told about attached files."""

    def describe(self, *names):
        reply = self.kernel.collect(self.kernel.request("describe", files=list(names)), wait=120)
        self.assertEqual(reply.status, "ok", reply.error)
        return reply.value

    def write(self, code):
        self.run_ok(code)

    def test_tables(self):
        self.write("import pandas as pd\n"
                   "frame = pd.DataFrame({'city': ['Oslo', 'Rome', 'Lima'], 'people': [1, 2, 3]})\n"
                   "frame.to_csv('cities.csv', index=False)\n"
                   "frame.to_csv('cities.tsv', sep='\\t', index=False)\n"
                   "frame.to_excel('cities.xlsx', index=False, sheet_name='Data')\n"
                   "frame.to_json('cities.json', orient='records')")
        text = self.describe("cities.csv", "cities.tsv", "cities.xlsx", "cities.json")
        self.assertIn("/mnt/data/cities.csv: CSV table", text)
        self.assertIn("3 rows x 2 columns: city (object), people (int64)", text)
        self.assertIn("Oslo", text)
        self.assertIn("/mnt/data/cities.tsv: TSV table", text)
        self.assertIn("sheet 'Data'", text)
        self.assertIn("a list of 3 items: records with city, people", text)

    def test_documents_and_images(self):
        self.write("import docx\nd = docx.Document()\nd.add_paragraph('Quarterly report')\nd.save('r.docx')\n"
                   "from PIL import Image\nImage.new('RGB', (30, 20)).save('p.png')\n"
                   "open('notes.txt', 'w').write('first line\\nsecond line\\n')\n"
                   "from pypdf import PdfWriter\nw = PdfWriter()\nw.add_blank_page(100, 100)\n"
                   "w.write('blank.pdf')\nw.encrypt('secret')\nw.write('locked.pdf')")
        text = self.describe("r.docx", "p.png", "notes.txt", "blank.pdf", "locked.pdf")
        self.assertIn("1 paragraphs, 0 tables", text)
        self.assertIn("Quarterly report", text)
        self.assertIn("PNG, 30 x 20 pixels", text)
        self.assertIn("2 lines", text)
        self.assertIn("first line", text)
        self.assertIn("1 pages", text)
        self.assertIn("encrypted: it cannot be read without its password", text)

    def test_bad_files(self):
        self.write("open('broken.xlsx', 'wb').write(b'PK\\x03\\x04 not really a zip')\n"
                   "open('empty.csv', 'w').close()")
        text = self.describe("broken.xlsx", "empty.csv", "missing.csv")
        self.assertIn("broken.xlsx: Excel workbook", text)
        self.assertIn("could not be read as Excel workbook", text)
        self.assertIn("empty.csv: CSV table, 0 bytes (empty)", text)
        self.assertIn("missing.csv: cannot be read", text)


# What sandbox/image/packages.txt and sandbox/Dockerfile install beside the science stack.
IMAGE_LIBRARIES = ["openpyxl", "xlrd", "odf", "tabulate", "pypdf", "pdfminer", "docx", "sklearn",
                   "statsmodels", "networkx", "bs4", "lxml", "requests", "xlsxwriter", "tqdm", "pip",
                   "jinja2", "nbformat"]


@unittest.skipUnless(REQUIRE_SCIENCE, "the image's libraries are checked inside the image")
class ImageLibrariesTest(KernelTestCase):
    def test_every_library_imports(self):
        reply = self.kernel.collect(self.kernel.request("preload", modules=IMAGE_LIBRARIES), wait=180)
        self.assertEqual(reply.status, "ok")
        self.assertNotIn("failed", reply.value)
        self.assertEqual(reply.value, "imported: " + ", ".join(IMAGE_LIBRARIES))


def main():
    global KERNEL
    args = sys.argv[1:]
    rest = []
    while args:
        arg = args.pop(0)
        if arg == "--kernel" and args:
            KERNEL = os.path.abspath(args.pop(0))
        elif arg.startswith("--kernel="):
            KERNEL = os.path.abspath(arg.split("=", 1)[1])
        else:
            rest.append(arg)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
