/**
 * The aggregator's query API over its state stores: {@code GET /targets/{id}}, {@code GET /targets?group=G},
 * {@code GET /groups/{id}}, {@code GET /groups/{id}/routable?after=&limit=}, {@code GET /groups/{id}/members?after=&limit=} (pages of
 * a group's rows, so a group of any size is read a page at a time), answered from the instance that owns the key and
 * forwarded there over HTTP ({@code application.server}) when another instance is asked.
 */
package io.healthmesh.aggregator.query;
