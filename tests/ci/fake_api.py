#!/usr/bin/env python3
"""A stand-in for the GitHub and GitLab comment APIs on 127.0.0.1, for tests/ci/run.sh.

GET of any URL returns the comments stored so far (a JSON list); POST stores a new comment;
PATCH or PUT of URL/ID replaces comment ID. Every request is logged to LOG as "METHOD PATH".
Writes the port it listens on to PORT_FILE. Usage: fake_api.py PORT_FILE LOG
"""
import http.server
import json
import sys

comments = []


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def record(self):
        with open(sys.argv[2], "a", encoding="utf-8") as log:
            log.write(f"{self.command} {self.path} {self.headers.get('Authorization') or self.headers.get('PRIVATE-TOKEN')}\n")

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        return json.loads(self.rfile.read(int(self.headers["Content-Length"])))["body"]

    def do_GET(self):
        self.record()
        self.reply(200, comments)

    def do_POST(self):
        self.record()
        comments.append({"id": len(comments) + 7, "body": self.body()})
        self.reply(201, comments[-1])

    def do_PATCH(self):
        self.record()
        wanted = int(self.path.rsplit("/", 1)[1])
        for comment in comments:
            if comment["id"] == wanted:
                comment["body"] = self.body()
                return self.reply(200, comment)
        return self.reply(404, {"message": "Not Found"})

    do_PUT = do_PATCH


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w", encoding="utf-8") as out:
    out.write(str(server.server_address[1]))
server.serve_forever()
