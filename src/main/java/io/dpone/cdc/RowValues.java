package io.dpone.cdc;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The read-only {@code data} or {@code metadata} map of one change, as a live reader builds it: the column names
 * (their order and a name-to-slot index) belong to a {@link Shape} shared by every change of the batch, each change
 * holds only its values. A {@link java.util.LinkedHashMap} per change held a node per column and a hash table
 * besides the values: a 100k-change batch kept ~1 KiB per change live, which every young collection of a warm tick
 * copied (bench/README.md, "CDC first tick, session 11"). Equal to any {@link Map} with the same entries
 * ({@link AbstractMap}'s {@code equals} and {@code hashCode}); iterates in the shape's order; values may be null.
 */
public final class RowValues extends AbstractMap<String, Object> {
    /** The column names of a batch's rows, in order; unique. */
    public static final class Shape {
        private final String[] names;
        private final Map<String, Integer> slots;
        private final Set<String> keySet;

        private Shape(List<String> names) {
            this.names = names.toArray(String[]::new);
            this.slots = new HashMap<>(names.size() * 4 / 3 + 1);
            for (int i = 0; i < this.names.length; i++) {
                if (slots.putIfAbsent(this.names[i], i) != null) {
                    throw new IllegalArgumentException("column " + this.names[i] + " appears twice");
                }
            }
            this.keySet = Collections.unmodifiableSet(new LinkedHashSet<>(names));
        }

        public static Shape of(List<String> names) {
            return new Shape(names);
        }

        /**
         * The row holding {@code values} in this shape's order; the array is taken as it is (the caller builds one
         * per row and must not change it afterwards).
         */
        public RowValues row(Object[] values) {
            if (values.length != names.length) {
                throw new IllegalArgumentException(names.length + " values expected, " + values.length + " given");
            }
            return new RowValues(this, values);
        }
    }

    private final Shape shape;
    private final Object[] values;

    private RowValues(Shape shape, Object[] values) {
        this.shape = shape;
        this.values = values;
    }

    @Override
    public Object get(Object key) {
        Integer slot = shape.slots.get(key);
        return slot == null ? null : values[slot];
    }

    @Override
    public boolean containsKey(Object key) {
        return shape.slots.containsKey(key);
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public Set<String> keySet() {
        return shape.keySet;
    }

    @Override
    public Collection<Object> values() {
        return Collections.unmodifiableList(Arrays.asList(values));
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super Object> action) {
        for (int i = 0; i < values.length; i++) {
            action.accept(shape.names[i], values[i]);
        }
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Object>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < values.length;
                    }

                    @Override
                    public Entry<String, Object> next() {
                        if (next >= values.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(shape.names[i], values[i]);
                    }
                };
            }

            @Override
            public int size() {
                return values.length;
            }
        };
    }
}
