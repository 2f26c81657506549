#!/usr/bin/env python3
"""A local HTTP server for the `gpuplan catalog update` test: serves ROOT on 127.0.0.1 at a free
port, written to PORT_FILE once it listens. Python's standard library only.

Paths: `/X` is the file ROOT/X (404 when absent), sent without a Last-Modified header.
`/dated/YYYY-MM-DD/X` is ROOT/X with `Last-Modified` at noon UTC of that day. `/truncated/X`
announces the whole length of ROOT/X but sends half of it and closes. `/slow/X` sends the headers
and then nothing for a minute.

Usage: server.py ROOT PORT_FILE
"""

import datetime
import email.utils
import http.server
import os
import sys
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet: the test prints what it checks
        pass

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        modified = None
        if path.startswith("/dated/"):
            day, path = path[len("/dated/"):].split("/", 1)
            path = "/" + path
            moment = datetime.datetime.fromisoformat(day + "T12:00:00+00:00")
            modified = email.utils.format_datetime(moment, usegmt=True)
        mode = ""
        for prefix in ("/truncated/", "/slow/"):
            if path.startswith(prefix):
                mode, path = prefix.strip("/"), "/" + path[len(prefix):]
        file = os.path.normpath(os.path.join(self.server.root, path.lstrip("/")))
        if not file.startswith(self.server.root + os.sep) or not os.path.isfile(file):
            body = b"not found\n"
            self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        with open(file, "rb") as f:
            data = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "text/csv")
        if modified:
            self.send_header("Last-Modified", modified)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        if mode == "slow":
            self.wfile.flush()
            time.sleep(60)
            return
        self.wfile.write(data[: len(data) // 2] if mode == "truncated" else data)
        self.wfile.flush()
        self.close_connection = True


def main():
    root, port_file = os.path.realpath(sys.argv[1]), sys.argv[2]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.root = root
    with open(port_file + ".tmp", "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
