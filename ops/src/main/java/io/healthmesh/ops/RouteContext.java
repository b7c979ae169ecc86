package io.healthmesh.ops;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A route of {@link OpsServer} as the JDK's {@link HttpContext}: its path prefix and handler (no JDK server behind it). */
final class RouteContext extends HttpContext {

    private final String path;
    private volatile HttpHandler handler;
    private final Map<String, Object> attributes = new HashMap<>();
    private final List<Filter> filters = new ArrayList<>();

    RouteContext(String path, HttpHandler handler) {
        this.path = path;
        this.handler = handler;
    }

    @Override
    public HttpHandler getHandler() {
        return handler;
    }

    @Override
    public void setHandler(HttpHandler h) {
        handler = h;
    }

    @Override
    public String getPath() {
        return path;
    }

    @Override
    public HttpServer getServer() {
        return null;
    }

    @Override
    public Map<String, Object> getAttributes() {
        return attributes;
    }

    @Override
    public List<Filter> getFilters() {
        return filters;
    }

    @Override
    public Authenticator setAuthenticator(Authenticator auth) {
        return null;
    }

    @Override
    public Authenticator getAuthenticator() {
        return null;
    }
}
