/**
 * The peers healthmesh is measured against on the same farm and in the same run: HAProxy's active health
 * checks and Prometheus blackbox_exporter, each started from its Debian package's binary with a generated
 * config, and the CPU accounting ({@code /proc/<pid>/stat}) used for every process alike.
 */
package io.healthmesh.bench.peers;
