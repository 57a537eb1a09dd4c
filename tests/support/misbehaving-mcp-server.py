#!/usr/bin/env python3
"""An MCP server on stdio that misbehaves in one chosen way, for the tests of what Sandpiper
does with servers that break the protocol. Well-behaved servers come from npm (the reference
servers); this one only covers what they never do.

usage: misbehaving-mcp-server.py MODE
  crash-on-call    initializes, lists one tool, exits when it is called
  never-answer     reads everything, answers nothing
  garbage          prints text that is not JSON-RPC, then answers normally
  garbage-only     prints text that is not JSON-RPC, answers nothing
  huge-result      its tool returns 10 MB of text (or, with "links": N, N resource links with
                   long descriptions)
  old-version      answers initialize with protocol version 1999-01-01
  bad-schema       lists a tool with an invalid input schema and a good one
  duplicate        lists the same tool twice
  unknown-noise    sends a notification nobody knows and an answer to an id never sent
  exit-at-once     writes to stderr and exits with code 3 before reading anything
  paged            lists its tools over three pages
  hang-on-call     initializes and lists its tools, never answers a call
  list-changes     a call adds a tool, and the server says its list changed
  stubborn         initializes, then ignores the end of its input and SIGTERM
  asks             before it answers initialize, asks the client for a ping and for its roots
                   and checks the answers (a pong, and "method not found")
"""
import json
import signal
import sys
import time

called = False

MODE = sys.argv[1] if len(sys.argv) > 1 else "garbage"
GOOD_TOOL = {"name": "ping", "description": "Answers pong.", "inputSchema": {"type": "object", "properties": {}}}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(request, result):
    send({"jsonrpc": "2.0", "id": request["id"], "result": result})


def tools_for(request):
    if MODE == "bad-schema":
        return {"tools": [{"name": "broken", "inputSchema": {"type": "string"}},
                          {"name": "noschema"}, GOOD_TOOL]}
    if MODE == "duplicate":
        return {"tools": [GOOD_TOOL, dict(GOOD_TOOL, description="The second one.")]}
    if MODE == "paged":
        cursor = (request.get("params") or {}).get("cursor")
        page = {None: 0, "two": 1, "three": 2}[cursor]
        result = {"tools": [dict(GOOD_TOOL, name="tool%d" % page)]}
        if page < 2:
            result["nextCursor"] = ["two", "three"][page]
        return result
    if MODE == "list-changes":
        return {"tools": [GOOD_TOOL] + ([dict(GOOD_TOOL, name="pong")] if called else [])}
    return {"tools": [GOOD_TOOL, {"name": "huge", "inputSchema": {"type": "object"}}]}


def ask_client():
    """Sends the client two requests of the server's own and checks how they are answered."""
    send({"jsonrpc": "2.0", "id": "s1", "method": "ping"})
    send({"jsonrpc": "2.0", "id": "s2", "method": "roots/list"})
    answers = {}
    while len(answers) < 2:
        message = json.loads(sys.stdin.readline())
        if message.get("id") in ("s1", "s2"):
            answers[message["id"]] = message
    ok = answers["s1"].get("result") == {} and answers["s2"].get("error", {}).get("code") == -32601
    if not ok:
        sys.stderr.write("the client answered wrongly: %r\n" % answers)
        sys.exit(5)


def main():
    global called
    if MODE == "exit-at-once":
        sys.stderr.write("fatal: this server cannot run here\n")
        sys.exit(3)
    if MODE in ("garbage", "garbage-only"):
        print("Hello! This server prints a banner on stdout.", flush=True)
    if MODE == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for line in sys.stdin:
        if MODE in ("never-answer", "garbage-only"):
            if MODE == "garbage-only":
                print("still not JSON", flush=True)
            continue
        request = json.loads(line)
        method = request.get("method")
        if "id" not in request:
            continue
        if method == "initialize":
            if MODE == "asks":
                ask_client()
            version = "1999-01-01" if MODE == "old-version" else request["params"]["protocolVersion"]
            answer(request, {"protocolVersion": version, "capabilities": {"tools": {}},
                             "serverInfo": {"name": "misbehaving", "version": "1"}})
        elif method == "tools/list":
            if MODE == "unknown-noise":
                send({"jsonrpc": "2.0", "method": "notifications/something_new", "params": {}})
                send({"jsonrpc": "2.0", "id": 987654, "result": {}})
            answer(request, tools_for(request))
        elif method == "tools/call":
            if MODE == "hang-on-call":
                continue
            if MODE == "crash-on-call":
                sys.stderr.write("segmentation fault (pretend)\n")
                sys.exit(139)
            if MODE == "list-changes":
                called = True
                answer(request, {"content": [{"type": "text", "text": "pong"}]})
                send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
                continue
            links = (request["params"].get("arguments") or {}).get("links")
            if request["params"]["name"] == "huge" and links:
                answer(request, {"content": [{"type": "resource_link", "uri": "file:///link-%d" % i,
                                              "name": "link-%d" % i, "description": "d" * 10000}
                                             for i in range(links)]})
            elif request["params"]["name"] == "huge":
                answer(request, {"content": [{"type": "text", "text": "x" * (10 * 1024 * 1024)}]})
            else:
                answer(request, {"content": [{"type": "text", "text": "pong"}]})
        else:
            send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "Method not found"}})
    while MODE == "stubborn":
        time.sleep(1)


main()
