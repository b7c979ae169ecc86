/** Runtime plumbing shared by every worker role: the operations HTTP endpoint. */
package io.healthmesh.ops;
