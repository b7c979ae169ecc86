package io.healthmesh.probe.transport;

import io.netty.buffer.ByteBuf;

/**
 * The first {@code capacity} bytes of a response, searched for an expected byte sequence. Bytes past the
 * capacity are never kept, so a huge response costs at most {@code capacity} bytes of memory.
 */
public final class ByteWindow {

    private final byte[] bytes;
    private final byte[] needle;
    private int size;

    public ByteWindow(int capacity, byte[] needle) {
        this.bytes = new byte[capacity];
        this.needle = needle;
    }

    /** Appends what fits of {@code data} (without consuming it) and returns true once the window holds the needle. */
    public boolean append(ByteBuf data) {
        int take = Math.min(data.readableBytes(), bytes.length - size);
        int searchFrom = Math.max(0, size - needle.length + 1);
        data.getBytes(data.readerIndex(), bytes, size, take);
        size += take;
        return indexOf(searchFrom) >= 0;
    }

    public boolean isFull() {
        return size == bytes.length;
    }

    public int size() {
        return size;
    }

    public boolean contains() {
        return indexOf(0) >= 0;
    }

    private int indexOf(int from) {
        outer:
        for (int i = from; i <= size - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (bytes[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
