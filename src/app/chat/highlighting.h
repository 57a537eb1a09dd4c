#pragma once

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Theme>

class QPalette;
class QTextDocument;

namespace KSyntaxHighlighting {
class Repository;
}

namespace Sandpiper::Highlighting {

// One repository for the whole app: loading the definitions is not cheap.
KSyntaxHighlighting::Repository &repository();
// A light or dark theme, whichever suits the palette.
KSyntaxHighlighting::Theme themeFor(const QPalette &palette);
bool isDark(const QPalette &palette);
// The definition for a Markdown fence language ("py", "python", "c++", "sh", ...).
KSyntaxHighlighting::Definition definitionForLanguage(const QString &language);
// Colours the characters of DOCUMENT's blocks FIRST..LAST (block numbers) as CODE in DEFINITION.
void highlightBlocks(QTextDocument *document, int first, int last, const KSyntaxHighlighting::Definition &definition,
                     const KSyntaxHighlighting::Theme &theme);

} // namespace Sandpiper::Highlighting
