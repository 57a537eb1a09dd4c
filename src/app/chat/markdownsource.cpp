#include "chat/markdownsource.h"

#include "chat/remoteimages.h"

#include <math/mathscanner.h>
#include <sandbox/sandboxfigure.h>
#include <sandbox/sandboxfolder.h>

#include <QFile>
#include <QRegularExpression>
#include <QUrl>

namespace Sandpiper {

const QString MarkdownSource::copyScheme = QStringLiteral("copy-code");
const QString MarkdownSource::loadImageScheme = QStringLiteral("load-image");
const QString MarkdownSource::mathScheme = QStringLiteral("sandpiper-math");

namespace {

// A list item or its continuation: a blank line between two such lines belongs to the list.
bool inListLine(QStringView line)
{
    static const QRegularExpression item(QStringLiteral("^(\\s+\\S|\\s{0,3}([-*+]|\\d{1,9}[.)])(\\s|$))"));
    return item.matchView(line).hasMatch();
}

// The start of a fenced code block: up to three spaces, three backticks or tildes or more (the
// fence), the language.
const QRegularExpression &fenceOpening()
{
    static const QRegularExpression opening(QStringLiteral("^( {0,3})(`{3,}|~{3,})\\s*([^`\\s]*)"));
    return opening;
}

// Whether LINE closes the code block that FENCE opened: as many of its characters or more, and
// nothing else.
bool closesFence(QStringView line, const QString &fence)
{
    const QStringView trimmed = line.trimmed();
    return trimmed.startsWith(fence) && trimmed.count(fence.front()) == trimmed.size();
}

// TEXT as Markdown that reads as TEXT: its punctuation escaped.
QString escapedMarkdown(const QString &text)
{
    QString escaped;
    for (const QChar c : text) {
        if (c.unicode() < 128 && (c.isPunct() || c.isSymbol()))
            escaped += QLatin1Char('\\');
        escaped += c;
    }
    return escaped;
}

// LINE with its block quotes and list items nested no deeper than a reader can afford: Qt's
// builds one frame per level, so half a million "> " on one line would take seconds and
// hundreds of megabytes. The markers past the limit are escaped, and read as text.
QString withNestingCapped(const QString &line)
{
    constexpr int maxDepth = 32;
    int depth = 0;
    for (qsizetype i = 0; i < line.size();) {
        qsizetype marker = i;
        while (marker < line.size() && line[marker] == QLatin1Char(' ') && marker - i < 4)
            ++marker;
        qsizetype end = marker;
        while (end < line.size() && line[end].isDigit() && end - marker < 9)
            ++end;
        const bool ordered =
            end > marker && end < line.size() && (line[end] == QLatin1Char('.') || line[end] == QLatin1Char(')'));
        if (!ordered) {
            end = marker;
            if (end >= line.size() || !QStringLiteral(">-*+").contains(line[end]))
                return line;
        }
        const bool quote = line[end] == QLatin1Char('>');
        // A list marker needs the space after it; a quote's is optional.
        if (!quote && (end + 1 >= line.size() || line[end + 1] != QLatin1Char(' ')))
            return line;
        if (++depth > maxDepth)
            return line.first(end) + QLatin1Char('\\') + line.sliced(end);
        i = end + 1;
    }
    return line;
}

} // namespace

MarkdownSource::MarkdownSource(const QString &folder, const RemoteImages *remoteImages)
    : m_folder(folder)
    , m_remoteImages(remoteImages)
{}

qsizetype MarkdownSource::lastParagraphBoundary(const QString &text, qsizetype from)
{
    qsizetype boundary = from;
    QString fence;            // of the code block the line is in
    qsizetype candidate = -1; // a blank line after a list line, waiting for what follows
    QStringView previous;     // the last line that was not blank
    qsizetype lineStart = from;
    while (lineStart < text.size()) {
        const qsizetype lineEnd = text.indexOf(QLatin1Char('\n'), lineStart);
        if (lineEnd < 0)
            break; // the last line is still arriving
        const QStringView raw = QStringView(text).sliced(lineStart, lineEnd - lineStart);
        const QStringView line = raw.trimmed();
        if (!fence.isEmpty()) {
            if (closesFence(line, fence))
                fence.clear();
        } else if (line.isEmpty()) {
            if (inListLine(previous))
                candidate = lineEnd + 1;
            else
                boundary = lineEnd + 1;
        } else {
            if (candidate >= 0) {
                // The list goes on after its blank line, or it ended there.
                if (!inListLine(raw))
                    boundary = candidate;
                candidate = -1;
            }
            // Indented deeper than a fence may be, it still is one inside a list item.
            if (const QRegularExpressionMatch open = fenceOpening().matchView(line); open.hasMatch())
                fence = open.captured(2);
        }
        if (!line.isEmpty())
            previous = raw;
        lineStart = lineEnd + 1;
    }
    return boundary;
}

QString MarkdownSource::prepare(const QString &source, QStringList *codeBlocks, QStringList *languages) const
{
    QStringList out;
    QString fence;
    QString code;
    const QStringList lines = markFormulas(source).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        if (!fence.isEmpty()) {
            if (closesFence(line, fence)) {
                fence.clear();
                codeBlocks->append(code);
            } else {
                code += line + QLatin1Char('\n');
            }
            out << line;
            continue;
        }
        const QRegularExpressionMatch open = fenceOpening().match(line);
        if (open.hasMatch()) {
            fence = open.captured(2);
            code.clear();
            const QString language = open.captured(3);
            languages->append(language);
            // Set small by decorateCodeBlocks.
            const QString label = language.isEmpty() ? tr("code") : escapedMarkdown(language);
            out << QStringLiteral("%1 · [%2](%3:%4)").arg(label, tr("Copy"), copyScheme).arg(languages->size() - 1)
                << QString() << line;
            continue;
        }
        out << rewriteImages(withNestingCapped(line));
    }
    if (!fence.isEmpty())
        codeBlocks->append(code); // still streaming in
    return out.join(QLatin1Char('\n'));
}

QString MarkdownSource::rewriteImages(const QString &line) const
{
    static const QRegularExpression image(
        QStringLiteral("!\\[([^\\]\\n]*)\\]\\(<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\)"));
    QString rewritten = line;
    qsizetype offset = 0;
    QRegularExpressionMatch match;
    while ((match = image.match(rewritten, offset)).hasMatch()) {
        const QString alt = match.captured(1);
        const QString target = match.captured(2);
        QString replacement;
        const QString name = sandboxNameFor(target);
        const QUrl url(target);
        if (target.startsWith(mathScheme + QLatin1Char(':'))) {
            replacement = match.captured(0);
        } else if (!name.isEmpty()) {
            const SandboxFolder folder(m_folder);
            const SandboxFolder::Opened file = folder.open(name, SandboxFigure::maxBytes);
            const QUrl local = QUrl::fromLocalFile(folder.hostPath(name));
            replacement = file ? QStringLiteral("![%1](%2)").arg(alt, local.toString(QUrl::FullyEncoded))
                               : tr("[image not shown: %1]").arg(file.error);
        } else if ((url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"))) {
            replacement = m_remoteImages && m_remoteImages->isLoaded(url) ? match.captured(0)
                          : m_remoteImages && m_remoteImages->hasFailed(url)
                              ? tr("[the image at %1 could not be loaded]").arg(target)
                              : QStringLiteral("[%1 %2](%3:%4)")
                                    .arg(tr("Load image from"), url.host().toHtmlEscaped(), loadImageScheme,
                                         QString::fromLatin1(url.toEncoded().toPercentEncoding()));
        } else {
            replacement = alt.isEmpty() ? tr("[image not found: %1]").arg(target) : QStringLiteral("[%1]").arg(alt);
        }
        rewritten.replace(match.capturedStart(), match.capturedLength(), replacement);
        offset = match.capturedStart() + replacement.size();
    }
    return rewritten;
}

QString MarkdownSource::markFormulas(const QString &markdown)
{
    const QList<MathScanner::Formula> formulas = MathScanner::find(markdown);
    if (formulas.isEmpty())
        return markdown;
    QString marked;
    qsizetype at = 0;
    for (const MathScanner::Formula &formula : formulas) {
        marked += QStringView(markdown).sliced(at, formula.start - at);
        marked += QStringLiteral("![TeX](%1:%2/%3)")
                      .arg(mathScheme, formula.display ? QStringLiteral("d") : QStringLiteral("i"),
                           QString::fromLatin1(QUrl::toPercentEncoding(formula.tex)));
        at = formula.start + formula.length;
    }
    return marked + QStringView(markdown).sliced(at);
}

QString MarkdownSource::sandboxNameFor(const QString &target) const
{
    if (m_folder.isEmpty())
        return {};
    for (const char *prefix : {"sandbox:/mnt/data/", "sandbox:mnt/data/", "/mnt/data/"}) {
        if (target.startsWith(QLatin1String(prefix))) {
            // Only names inside the conversation's folder, whatever ".." the model wrote.
            const QString name = target.mid(qstrlen(prefix));
            return SandboxFolder::nameProblem(name).isEmpty() ? name : QString();
        }
    }
    return {};
}

} // namespace Sandpiper
