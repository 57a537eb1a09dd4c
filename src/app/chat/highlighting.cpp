#include "chat/highlighting.h"

#include <KSyntaxHighlighting/AbstractHighlighter>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/State>

#include <cmath>

#include <QColor>
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
    explicit DocumentRangeHighlighter(const QColor &background)
        : m_background(background)
    {}

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
        const QTextCharFormat shown = charFormat(format, theme(), m_background);
        if (length <= 0 || shown.isEmpty())
            return;
        QTextCursor cursor(m_block);
        cursor.setPosition(m_block.position() + offset);
        cursor.setPosition(m_block.position() + offset + length, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(shown);
    }

private:
    QColor m_background;
    QTextBlock m_block;
};

// WCAG's relative luminance.
double luminance(const QColor &color)
{
    auto channel = [](double value) {
        return value <= 0.04045 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) + 0.0722 * channel(color.blueF());
}

constexpr double minimumContrast = 4.5;

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

double contrastRatio(const QColor &a, const QColor &b)
{
    const double lighter = std::max(luminance(a), luminance(b));
    const double darker = std::min(luminance(a), luminance(b));
    return (lighter + 0.05) / (darker + 0.05);
}

QColor readableOn(const QColor &text, const QColor &background)
{
    const QColor target = luminance(background) < 0.18 ? QColor(Qt::white) : QColor(Qt::black);
    // Mixed towards white or black in small steps, the hue kept as far as it can be.
    for (int step = 0; step <= 20; ++step) {
        const double t = step / 20.0;
        const QColor mixed = QColor::fromRgbF(float(text.redF() + (target.redF() - text.redF()) * t),
                                              float(text.greenF() + (target.greenF() - text.greenF()) * t),
                                              float(text.blueF() + (target.blueF() - text.blueF()) * t));
        if (contrastRatio(mixed, background) >= minimumContrast)
            return mixed;
    }
    return target;
}

QTextCharFormat charFormat(const KSyntaxHighlighting::Format &format, const KSyntaxHighlighting::Theme &theme,
                           const QColor &background)
{
    QTextCharFormat shown;
    if (format.isDefaultTextStyle(theme))
        return shown;
    QColor behind = background;
    if (format.hasBackgroundColor(theme)) {
        behind = format.backgroundColor(theme);
        shown.setBackground(behind);
    }
    if (format.hasTextColor(theme))
        shown.setForeground(readableOn(format.textColor(theme), behind));
    if (format.isBold(theme))
        shown.setFontWeight(QFont::Bold);
    if (format.isItalic(theme))
        shown.setFontItalic(true);
    return shown;
}

void highlightBlocks(QTextDocument *document, int first, int last, const KSyntaxHighlighting::Definition &definition,
                     const KSyntaxHighlighting::Theme &theme, const QColor &background)
{
    if (!definition.isValid())
        return;
    DocumentRangeHighlighter highlighter(background);
    highlighter.setDefinition(definition);
    highlighter.setTheme(theme);
    highlighter.highlight(document, first, last);
}

} // namespace Sandpiper::Highlighting
