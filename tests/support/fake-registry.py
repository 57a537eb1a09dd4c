#!/usr/bin/env python3
"""A container registry on 127.0.0.1 that speaks the Docker Registry HTTP API v2 well enough for
the real `docker pull`: `/v2/`, a manifest by tag or digest (HEAD and GET, with its media type and
Docker-Content-Digest) and blobs by digest. It serves one image laid out as llama.cpp's published
server image is: the sid root that tests/llama/setup.sh keeps (it holds Debian's llama-server) as
one layer, and /app/llama-server in a second one, the image's entrypoint.

    fake-registry.py ROOT REPOSITORY TAG WORKDIR

Prints the port once it listens; serves until it is ended. Docker treats registries on
127.0.0.0/8 as insecure, so plain HTTP is enough.
"""
import datetime
import hashlib
import io
import json
import os
import platform
import subprocess
import sys
import tarfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MANIFEST = "application/vnd.oci.image.manifest.v1+json"
CONFIG = "application/vnd.oci.image.config.v1+json"
LAYER = "application/vnd.oci.image.layer.v1.tar"


def digest_of(path):
    sha = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            sha.update(chunk)
    return "sha256:" + sha.hexdigest()


def main():
    root, repository, tag, work = sys.argv[1:5]
    blobs = {}  # digest -> path

    def add(path):
        digest = digest_of(path)
        blobs[digest] = path
        return {"digest": digest, "size": os.path.getsize(path)}

    rootfs = os.path.join(work, "root.tar")
    subprocess.run(["tar", "-C", root, "--exclude=./proc", "--exclude=./sys", "--exclude=./dev",
                    "-cf", rootfs, "."], check=True)
    app = os.path.join(work, "app.tar")
    with tarfile.open(app, "w") as archive:
        folder = tarfile.TarInfo("app")
        folder.type, folder.mode = tarfile.DIRTYPE, 0o755
        archive.addfile(folder)
        server = tarfile.TarInfo("app/llama-server")
        server.type, server.linkname = tarfile.SYMTYPE, "/usr/bin/llama-server"
        archive.addfile(server)
    layers = [add(rootfs), add(app)]

    arch = {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    config = {
        # Now: the newest image of its repository, as a fresh pull of the published one is.
        "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "architecture": arch,
        "os": "linux",
        "config": {"Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                           "LLAMA_ARG_HOST=0.0.0.0"],
                   "Entrypoint": ["/app/llama-server"], "WorkingDir": "/app"},
        # The layers are plain tar files, so each one's diff_id is its digest.
        "rootfs": {"type": "layers", "diff_ids": [layer["digest"] for layer in layers]},
    }
    config_path = os.path.join(work, "config.json")
    with open(config_path, "w") as f:
        json.dump(config, f)
    manifest = json.dumps({
        "schemaVersion": 2,
        "mediaType": MANIFEST,
        "config": dict(mediaType=CONFIG, **add(config_path)),
        "layers": [dict(mediaType=LAYER, **layer) for layer in layers],
    }).encode()
    manifest_digest = "sha256:" + hashlib.sha256(manifest).hexdigest()
    prefix = "/v2/%s/" % repository

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):
            pass  # quiet: the test says what matters

        def answer(self, status, headers, body=None, path=None):
            self.send_response(status)
            headers.setdefault("Docker-Distribution-API-Version", "registry/2.0")
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            if self.command == "HEAD":
                return
            if body is not None:
                self.wfile.write(body)
            elif path is not None:
                with open(path, "rb") as f:
                    for chunk in iter(lambda: f.read(1 << 20), b""):
                        self.wfile.write(chunk)

        def missing(self, code):
            body = json.dumps({"errors": [{"code": code, "message": code.lower().replace("_", " ")}]}).encode()
            self.answer(404, {"Content-Type": "application/json", "Content-Length": str(len(body))}, body)

        def do_GET(self):
            if self.path == "/v2/":
                return self.answer(200, {"Content-Type": "application/json", "Content-Length": "2"}, b"{}")
            if self.path.startswith(prefix + "manifests/"):
                reference = self.path[len(prefix + "manifests/"):]
                if reference not in (tag, manifest_digest):
                    return self.missing("MANIFEST_UNKNOWN")
                return self.answer(200, {"Content-Type": MANIFEST, "Content-Length": str(len(manifest)),
                                         "Docker-Content-Digest": manifest_digest}, manifest)
            if self.path.startswith(prefix + "blobs/"):
                digest = self.path[len(prefix + "blobs/"):]
                if digest not in blobs:
                    return self.missing("BLOB_UNKNOWN")
                return self.answer(200, {"Content-Type": "application/octet-stream",
                                         "Content-Length": str(os.path.getsize(blobs[digest])),
                                         "Docker-Content-Digest": digest}, path=blobs[digest])
            return self.missing("NAME_UNKNOWN")

        do_HEAD = do_GET

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
