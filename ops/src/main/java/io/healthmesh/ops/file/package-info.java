/**
 * The roles' own YAML (or JSON) files beside their settings: read once at start, validated whole, every problem
 * reported at once in the form the settings use ({@code path: value (expected: ...)}).
 */
package io.healthmesh.ops.file;
