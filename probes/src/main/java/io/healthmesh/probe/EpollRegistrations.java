package io.healthmesh.probe;

import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.util.collection.IntObjectMap;
import io.netty.util.concurrent.ThreadAwareExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * Epoll event loops that keep their registrations in an {@link FdTable} instead of Netty's hash map, whose removal
 * cost grows with the sockets in flight (see {@link FdTable}). Netty offers no way to choose that map, so the
 * handler's field is replaced right after Netty builds the handler, before its loop has started or registered
 * anything; the table honours the same {@link IntObjectMap} contract. When this Netty has no such field (a version
 * that renamed it), the loops keep Netty's map and one line says so: probes work the same, only slower with many
 * sockets in flight. {@code EpollRegistrationsTest} fails on such a version, so that an upgrade sees it.
 */
final class EpollRegistrations {

    private static final Logger LOG = LoggerFactory.getLogger(EpollRegistrations.class);
    private static final String FIELD_NAME = "registrations";
    /** Netty's field, or {@code null} when this version has none of the expected shape. */
    private static final Field FIELD = find();

    private EpollRegistrations() {
    }

    /** Netty's epoll loop factory, its handlers given an {@link FdTable} when this Netty allows it. */
    static IoHandlerFactory factory() {
        IoHandlerFactory netty = EpollIoHandler.newFactory();
        if (FIELD == null) {
            return netty;
        }
        return new IoHandlerFactory() {
            @Override
            public IoHandler newHandler(ThreadAwareExecutor executor) {
                IoHandler handler = netty.newHandler(executor);
                install(handler);
                return handler;
            }

            @Override
            public boolean isChangingThreadSupported() {
                return netty.isChangingThreadSupported();
            }
        };
    }

    /** The table {@code handler} keeps its registrations in, or {@code null} when it keeps Netty's map. */
    static FdTable<?> tableOf(IoHandler handler) {
        return FIELD != null && handler instanceof EpollIoHandler && read(handler) instanceof FdTable<?> table
                ? table : null;
    }

    private static void install(IoHandler handler) {
        Object current = read(handler);
        if (!(current instanceof IntObjectMap<?> map) || !map.isEmpty()) {
            LOG.warn("epoll event loop keeps Netty's registration map: it is not an empty IntObjectMap ({})",
                    current == null ? "null" : current.getClass().getName());
            return;
        }
        try {
            FIELD.set(handler, new FdTable<>());
        } catch (IllegalAccessException | RuntimeException e) {
            LOG.warn("epoll event loop keeps Netty's registration map: {}", e.toString());
        }
    }

    private static Object read(IoHandler handler) {
        try {
            return FIELD.get(handler);
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    private static Field find() {
        try {
            Field field = EpollIoHandler.class.getDeclaredField(FIELD_NAME);
            if (field.getType() != IntObjectMap.class || Modifier.isStatic(field.getModifiers())) {
                LOG.info("epoll event loops keep Netty's registration map: {}.{} is a {}",
                        EpollIoHandler.class.getSimpleName(), FIELD_NAME, field.getType().getName());
                return null;
            }
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException | RuntimeException e) {
            LOG.info("epoll event loops keep Netty's registration map: {}", e.toString());
            return null;
        }
    }
}
