/** {@code healthmesh window}: detection windows of SPEC section 5, and duration flags. */
package io.healthmesh.cli.window;
