/** Rendering for the terminal: plain JSON of Avro records. */
package io.healthmesh.cli.output;
