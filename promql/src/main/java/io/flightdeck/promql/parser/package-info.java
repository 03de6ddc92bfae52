/**
 * The PromQL syntax tree and the parser that builds it. Public: the tree ({@link
 * io.flightdeck.promql.parser.Expr} and its records), {@link
 * io.flightdeck.promql.parser.ParseException}, {@link io.flightdeck.promql.parser.ParseOptions},
 * the function table and {@link io.flightdeck.promql.parser.PromQLParser}. Lexer, parser, type
 * checker and printer are package-private. Error messages, operator precedence and printing follow
 * Prometheus v3.14 exactly, down to its quirks.
 */
package io.flightdeck.promql.parser;
