#include "chat/highlighting.h"

#include <KSyntaxHighlighting/AbstractHighlighter>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/State>

#include <QHash>
#include <QPalette>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

namespace Sandpiper::Highlighting {

namespace {

// Applies a highlighter's formats to a stretch of a QTextDocument, block by block.
class DocumentRangeHighlighter : public KSyntaxHighlighting::AbstractHighlighter
{
public:
    void highlight(QTextDocument *document, int first, int last)
    {
        KSyntaxHighlighting::State state;
        for (QTextBlock block = document->findBlockByNumber(first); block.isValid() && block.blockNumber() <= last;
             block = block.next()) {
            m_block = block;
            state = highlightLine(block.text(), state);
        }
    }

protected:
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format &format) override
    {
        if (length <= 0 || format.isDefaultTextStyle(theme()))
            return;
        QTextCharFormat charFormat;
        if (format.hasTextColor(theme()))
            charFormat.setForeground(format.textColor(theme()));
        if (format.isBold(theme()))
            charFormat.setFontWeight(QFont::Bold);
        if (format.isItalic(theme()))
            charFormat.setFontItalic(true);
        QTextCursor cursor(m_block);
        cursor.setPosition(m_block.position() + offset);
        cursor.setPosition(m_block.position() + offset + length, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(charFormat);
    }

private:
    QTextBlock m_block;
};

} // namespace

KSyntaxHighlighting::Repository &repository()
{
    static KSyntaxHighlighting::Repository instance;
    return instance;
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

KSyntaxHighlighting::Theme themeFor(const QPalette &palette)
{
    return repository().defaultTheme(isDark(palette) ? KSyntaxHighlighting::Repository::DarkTheme
                                                     : KSyntaxHighlighting::Repository::LightTheme);
}

KSyntaxHighlighting::Definition definitionForLanguage(const QString &language)
{
    static const QHash<QString, QString> aliases = {
        {QStringLiteral("py"), QStringLiteral("Python")},     {QStringLiteral("python3"), QStringLiteral("Python")},
        {QStringLiteral("js"), QStringLiteral("JavaScript")}, {QStringLiteral("ts"), QStringLiteral("TypeScript")},
        {QStringLiteral("sh"), QStringLiteral("Bash")},       {QStringLiteral("shell"), QStringLiteral("Bash")},
        {QStringLiteral("console"), QStringLiteral("Bash")},  {QStringLiteral("c++"), QStringLiteral("C++")},
        {QStringLiteral("cpp"), QStringLiteral("C++")},       {QStringLiteral("rs"), QStringLiteral("Rust")},
        {QStringLiteral("yml"), QStringLiteral("YAML")},      {QStringLiteral("md"), QStringLiteral("Markdown")},
        {QStringLiteral("html"), QStringLiteral("HTML")},     {QStringLiteral("sql"), QStringLiteral("SQL")},
        {QStringLiteral("json"), QStringLiteral("JSON")},     {QStringLiteral("csv"), QStringLiteral("CSV")},
    };
    const QString key = language.trimmed().toLower();
    if (key.isEmpty())
        return {};
    auto definition = repository().definitionForName(aliases.value(key, language.trimmed()));
    if (!definition.isValid())
        definition = repository().definitionForFileName(QStringLiteral("file.") + key);
    return definition;
}

void highlightBlocks(QTextDocument *document, int first, int last, const KSyntaxHighlighting::Definition &definition,
                     const KSyntaxHighlighting::Theme &theme)
{
    if (!definition.isValid())
        return;
    DocumentRangeHighlighter highlighter;
    highlighter.setDefinition(definition);
    highlighter.setTheme(theme);
    highlighter.highlight(document, first, last);
}

} // namespace Sandpiper::Highlighting
