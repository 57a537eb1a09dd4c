#pragma once

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Theme>

#include <QTextCharFormat>

class QColor;
class QPalette;
class QTextDocument;

namespace KSyntaxHighlighting {
class Format;
class Repository;
} // namespace KSyntaxHighlighting

namespace Sandpiper::Highlighting {

// One repository for the whole app: loading the definitions is not cheap.
KSyntaxHighlighting::Repository &repository();
// A light or dark theme, whichever suits the palette.
KSyntaxHighlighting::Theme themeFor(const QPalette &palette);
bool isDark(const QPalette &palette);
// The definition for a Markdown fence language ("py", "python", "c++", "sh", ...).
KSyntaxHighlighting::Definition definitionForLanguage(const QString &language);
// Colours the characters of DOCUMENT's blocks FIRST..LAST (block numbers) as CODE in DEFINITION,
// on BACKGROUND.
void highlightBlocks(QTextDocument *document, int first, int last, const KSyntaxHighlighting::Definition &definition,
                     const KSyntaxHighlighting::Theme &theme, const QColor &background);
// How FORMAT of THEME is shown on BACKGROUND (empty for the default text style): its colour made
// lighter or darker where it would be hard to read there (see readableOn).
QTextCharFormat charFormat(const KSyntaxHighlighting::Format &format, const KSyntaxHighlighting::Theme &theme,
                           const QColor &background);
// The contrast ratio of two colours as WCAG defines it, from 1 to 21.
double contrastRatio(const QColor &a, const QColor &b);
// TEXT, or the colour nearest to it towards white (on a dark BACKGROUND) or black that has a
// contrast ratio of 4.5 or more with BACKGROUND (WCAG AA for text): a theme's colours are made for
// its own background, not for the palette's.
QColor readableOn(const QColor &text, const QColor &background);

} // namespace Sandpiper::Highlighting
