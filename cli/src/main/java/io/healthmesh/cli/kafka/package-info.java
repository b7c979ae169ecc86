/** Kafka access shared by the client subcommands: cluster options and reading compacted topics to their end. */
package io.healthmesh.cli.kafka;
