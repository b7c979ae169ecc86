package io.healthmesh.core.target;

/** HTTP method of an HTTP or HTTPS probe; HEAD is the default (EdgeOne). */
public enum HttpMethod { HEAD, GET }
