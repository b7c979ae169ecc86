/**
 * The {@code healthmesh} command line: the entry point {@link io.healthmesh.cli.Healthmesh}, its exit codes and the
 * options shared by the subcommands.
 */
package io.healthmesh.cli;
