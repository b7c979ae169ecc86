/** {@code healthmesh window}: detection windows of BEHAVIOUR.md section 5, and duration flags. */
package io.healthmesh.cli.window;
