/** The target model with every default applied, its validation, its fingerprint and its detection windows. */
package io.healthmesh.core.target;
