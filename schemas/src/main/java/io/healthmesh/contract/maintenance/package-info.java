/**
 * The maintenance topic's records and the domain's windows ({@code core.maintenance}), mapped both ways.
 */
package io.healthmesh.contract.maintenance;
