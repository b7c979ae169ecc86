/**
 * {@code healthmesh maint}: start, list and end maintenance windows in the compacted maintenance topic.
 */
package io.healthmesh.cli.maint;
