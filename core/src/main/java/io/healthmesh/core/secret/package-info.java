/** Keeping secrets out of text that is logged or published: URL user info, passwords and tokens masked. */
package io.healthmesh.core.secret;
