#!/usr/bin/env python3
"""A throw-away notification receiver for trying `healthmesh notifier`: prints every POST (path, idempotency key,
body) and answers 200. Usage: python3 examples/notifier-receiver.py [PORT]  (default 18999, loopback only)."""
import http.server
import sys


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        print(self.path, self.headers.get("Idempotency-Key"), body.decode("utf-8", "replace"), flush=True)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


port = int(sys.argv[1]) if len(sys.argv) > 1 else 18999
http.server.HTTPServer(("127.0.0.1", port), Receiver).serve_forever()
