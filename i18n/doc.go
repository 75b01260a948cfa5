// Package i18n holds the tables of terms of Reconcile Lab's translations, one
// Markdown file per locale: terms.zh-CN.md for Simplified Chinese. Each says
// how the Kubernetes project's own documentation in that language translates
// the concepts the lessons teach, and which words stay English (API kinds,
// fields, reasons, commands, upstream names). Translators read the files;
// internal/i18n parses them for rlab lessons --check and the browser suite,
// which read them through FS, so the tables travel inside the binaries as the
// lessons do.
package i18n
