package io.dpone.camel;

import java.util.Map;

/**
 * The beans one package binds into every {@link DponeCamel} context by name (its processors, its intercept strategy),
 * found with {@link java.util.ServiceLoader} ({@code META-INF/services/io.dpone.camel.DponeBeans}). A bean given to
 * {@link DponeCamel#start(String, boolean, Map)} under the same name replaces the shipped one.
 */
public interface DponeBeans {
    /** Fresh instances, by the name the routes' YAML refers to them with ({@code ref:}). */
    Map<String, Object> beans();
}
