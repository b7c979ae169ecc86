#!/usr/bin/env python3
"""Reads probe results with Confluent's Python client (librdkafka) at its default settings, as a consumer of the
contract would, and checks every value's Confluent framing (magic byte 0, 4-byte schema id): the check that the
prober's compression (publish.compression) is readable outside the JVM. Needs python3-confluent-kafka (Debian).

Usage: read-results.py <bootstrap servers> [topic (default healthmesh.probe-results)] [records (default 5000)]
Exit status 0 when the records were read with no error and no bad framing, 1 otherwise."""
import sys
import time

import confluent_kafka as ck


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    bootstrap = sys.argv[1]
    topic = sys.argv[2] if len(sys.argv) > 2 else "healthmesh.probe-results"
    wanted = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
    consumer = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": "read-results-check",
                            "auto.offset.reset": "earliest"})
    consumer.subscribe([topic])
    read = bad = errors = 0
    deadline = time.time() + 60
    try:
        while read < wanted and time.time() < deadline:
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            if msg.error():
                errors += 1
                print("error:", msg.error())
                continue
            value = msg.value()
            if value is None or len(value) < 5 or value[0] != 0:
                bad += 1
            read += 1
    finally:
        consumer.close()
    print("confluent-kafka %s, librdkafka %s: %d records of %s read, %d badly framed, %d errors"
          % (ck.version()[0], ck.libversion()[0], read, topic, bad, errors))
    return 0 if read == wanted and bad == 0 and errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
