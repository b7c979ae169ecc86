/** The worker roles as subcommands: settings from a file and the environment, run until SIGTERM, close in order. */
package io.healthmesh.cli.roles;
