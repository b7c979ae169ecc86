/** Health states of targets. */
package io.healthmesh.core.health;
