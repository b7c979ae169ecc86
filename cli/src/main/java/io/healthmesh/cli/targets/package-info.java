/**
 * {@code healthmesh targets}: reading target files (YAML/JSON, contract field names, every error reported with file,
 * target and field) and the compacted targets topic (apply, list, get, delete).
 */
package io.healthmesh.cli.targets;
