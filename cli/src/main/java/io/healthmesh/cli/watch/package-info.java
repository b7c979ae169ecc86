/** {@code healthmesh watch}: following the state topics and rendering each event as one line. */
package io.healthmesh.cli.watch;
