package io.dpone.clickhouse;

import com.clickhouse.client.api.Client;
import java.lang.reflect.Field;
import org.apache.hc.core5.http.config.Http1Config;

/**
 * Bounds the response head client-v2's HTTP client accepts. client-v2 0.10 builds its connection factory with
 * httpcore5's {@code Http1Config} defaults, which put no limit on a header line's length or the number of header
 * lines (a server that sends endless headers grows the heap without bound), and offers no option for them. This sets
 * {@code maxLineLength} and {@code maxHeaderCount} on that factory's {@code Http1Config} and gives it a response
 * parser factory with the same config (httpcore5's own limits, which refuse the response with a
 * {@code MessageConstraintException}); fields are found by type, not by name.
 * {@code ServerClickHouseHostileTest} fails if a client upgrade moves it.
 */
final class HttpHeadLimits {
    private HttpHeadLimits() {
    }

    /** Applies the limits to {@code client}'s connection factory; false when the structure was not found. */
    static boolean apply(Client client, int maxLineLength, int maxHeaders) {
        try {
            Object helper = fieldOfType(client, "com.clickhouse.client.api.internal.HttpAPIClientHelper");
            Object http = fieldOfType(helper, "org.apache.hc.client5.http.impl.classic.CloseableHttpClient");
            Object manager = fieldOfType(http, "org.apache.hc.client5.http.io.HttpClientConnectionManager");
            Object factory = fieldOfType(manager, "org.apache.hc.core5.http.io.HttpConnectionFactory");
            Field config = field(factory.getClass(), Http1Config.class);
            Http1Config old = (Http1Config) config.get(factory);
            Http1Config bounded = Http1Config.copy(old).setMaxLineLength(maxLineLength).setMaxHeaderCount(maxHeaders)
                .build();
            config.set(factory, bounded);
            // the connection takes its response parser from this factory, which holds a config of its own
            Field parsers = field(factory.getClass(), org.apache.hc.core5.http.io.HttpMessageParserFactory.class);
            parsers.set(factory, new org.apache.hc.core5.http.impl.io.DefaultHttpResponseParserFactory(bounded));
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    private static Object fieldOfType(Object owner, String typeName) throws ReflectiveOperationException {
        Class<?> type = Class.forName(typeName, false, owner.getClass().getClassLoader());
        Object value = field(owner.getClass(), type).get(owner);
        if (value == null) {
            throw new NoSuchFieldException(typeName);
        }
        return value;
    }

    private static Field field(Class<?> start, Class<?> type) throws NoSuchFieldException {
        for (Class<?> c = start; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!java.lang.reflect.Modifier.isStatic(f.getModifiers()) && type.isAssignableFrom(f.getType())) {
                    f.setAccessible(true);
                    return f;
                }
            }
        }
        throw new NoSuchFieldException(type.getName());
    }
}
