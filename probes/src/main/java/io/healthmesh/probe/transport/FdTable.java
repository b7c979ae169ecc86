package io.healthmesh.probe.transport;

import io.netty.util.collection.IntObjectMap;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A map from file descriptors to values, indexed by the descriptor itself: every operation is one array access.
 *
 * <p>Why: Netty's epoll event loop keeps its registrations in an {@code IntObjectHashMap}, open addressing with
 * linear probing and the key as its own hash. The kernel hands out the lowest free descriptor, so the sockets a
 * loop opens in one burst have consecutive numbers and sit in consecutive slots, and removing one shifts or checks
 * every slot after it up to the next empty one. Probes end roughly in the order they started, so nearly every
 * removal is of the first slot of such a run: its cost grows with the number of sockets in flight (about 100 ns
 * per probe with 80 in flight, 220 with 400, measured in the JVM here; the prober's profile at 16,000 TCP probes/s
 * had 17 % of its probe loops' Java samples in that removal). Here a descriptor is its own slot: no probing, no
 * shifting. The price is memory for the highest descriptor seen, 4 or 8 bytes per descriptor number (a prober
 * whose open-files limit is 1M, fully used, holds at most 8 MB per event loop).
 *
 * <p>Only what a descriptor can be is accepted: keys from 0 to {@link #MAX_KEY}. Not thread-safe, as the map it
 * stands in for (each event loop owns its own); {@link #values()} and the views are copies, so that whoever walks
 * them may remove entries meanwhile (Netty closes every registration that way when a loop shuts down).
 */
public final class FdTable<V> extends AbstractMap<Integer, V> implements IntObjectMap<V> {

    /** The highest descriptor accepted (Linux caps {@code RLIMIT_NOFILE} at {@code fs.nr_open}, 2^30 at most). */
    public static final int MAX_KEY = (1 << 30) - 1;
    private static final int INITIAL_SLOTS = 1024;

    private Object[] slots = new Object[INITIAL_SLOTS];
    private int size;

    @Override
    @SuppressWarnings("unchecked")
    public V get(int key) {
        return key >= 0 && key < slots.length ? (V) slots[key] : null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V put(int key, V value) {
        if (value == null) {
            throw new NullPointerException("value of descriptor " + key);
        }
        if (key < 0 || key > MAX_KEY) {
            throw new IllegalArgumentException("not a file descriptor: " + key + " (expected: 0.." + MAX_KEY + ")");
        }
        if (key >= slots.length) {
            grow(key);
        }
        V previous = (V) slots[key];
        slots[key] = value;
        if (previous == null) {
            size++;
        }
        return previous;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V remove(int key) {
        if (key < 0 || key >= slots.length) {
            return null;
        }
        V previous = (V) slots[key];
        if (previous != null) {
            slots[key] = null;
            size--;
        }
        return previous;
    }

    @Override
    public boolean containsKey(int key) {
        return get(key) != null;
    }

    private void grow(int key) {
        int length = slots.length;
        while (length <= key) {
            length = length > MAX_KEY / 2 ? MAX_KEY + 1 : length * 2;
        }
        Object[] larger = new Object[length];
        System.arraycopy(slots, 0, larger, 0, slots.length);
        slots = larger;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public void clear() {
        java.util.Arrays.fill(slots, null);
        size = 0;
    }

    @Override
    public V get(Object key) {
        return key instanceof Integer fd ? get(fd.intValue()) : null;
    }

    @Override
    public V put(Integer key, V value) {
        return put(key.intValue(), value);
    }

    @Override
    public V remove(Object key) {
        return key instanceof Integer fd ? remove(fd.intValue()) : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    /** A copy of the values, in descriptor order. */
    @Override
    @SuppressWarnings("unchecked")
    public Collection<V> values() {
        List<V> values = new ArrayList<>(size);
        for (int fd = 0; fd < slots.length && values.size() < size; fd++) {
            if (slots[fd] != null) {
                values.add((V) slots[fd]);
            }
        }
        return values;
    }

    /** The entries as they are now, in descriptor order; setting a value writes through to the table. */
    @Override
    public Iterable<PrimitiveEntry<V>> entries() {
        List<PrimitiveEntry<V>> entries = new ArrayList<>(size);
        for (int fd = 0; fd < slots.length && entries.size() < size; fd++) {
            if (slots[fd] != null) {
                entries.add(new Entry(fd));
            }
        }
        return entries;
    }

    @Override
    public Set<Map.Entry<Integer, V>> entrySet() {
        List<Map.Entry<Integer, V>> copy = new ArrayList<>(size);
        for (PrimitiveEntry<V> e : entries()) {
            copy.add(new SimpleEntry<>(e.key(), e.value()));
        }
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<Integer, V>> iterator() {
                Iterator<Map.Entry<Integer, V>> it = copy.iterator();
                return new Iterator<>() {
                    private Map.Entry<Integer, V> last;

                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Map.Entry<Integer, V> next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        last = it.next();
                        return last;
                    }

                    @Override
                    public void remove() {
                        if (last == null) {
                            throw new IllegalStateException("next() first");
                        }
                        FdTable.this.remove(last.getKey().intValue());
                        last = null;
                    }
                };
            }

            @Override
            public int size() {
                return copy.size();
            }
        };
    }

    private final class Entry implements PrimitiveEntry<V> {
        private final int key;

        Entry(int key) {
            this.key = key;
        }

        @Override
        public int key() {
            return key;
        }

        @Override
        @SuppressWarnings("unchecked")
        public V value() {
            return (V) slots[key];
        }

        @Override
        public void setValue(V value) {
            put(key, value);
        }
    }
}
