#include "chat/markdownview.h"

#include "chat/highlighting.h"
#include "chat/markdownviewaccessible.h"
#include "chat/mathobject.h"
#include "chat/sandboxfileactions.h"
#include "chat/sandboximage.h"

#include <logging.h>
#include <math/mathrenderer.h>
#include <math/mathscanner.h>
#include <sandbox/sandboxfigure.h>

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QCursor>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QHelpEvent>
#include <QMenu>
#include <QMimeData>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocumentFragment>
#include <QToolTip>

#include <memory>

namespace Sandpiper {

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

// Where the text can be split into finished paragraphs: after the last blank line, from FROM on,
// that is outside a code fence and not inside a list (FROM itself when there is none). A chunk
// rendered on its own must read as it would within the whole text.
qsizetype lastParagraphBoundary(const QString &text, qsizetype from)
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

// Whether BLOCK stands in the document's own flow, in no list and no table.
bool isPlain(const QTextBlock &block)
{
    return !block.textList() && QTextCursor(block).currentFrame() == block.document()->rootFrame();
}

// Whether two blocks outside lists and tables read the same: text, formats, and the format of
// each of their parts.
bool sameBlock(const QTextBlock &shown, const QTextBlock &rendered)
{
    if (!isPlain(shown) || !isPlain(rendered) || shown.text() != rendered.text() ||
        shown.blockFormat() != rendered.blockFormat() || shown.charFormat() != rendered.charFormat())
        return false;
    auto a = shown.begin();
    auto b = rendered.begin();
    for (; !a.atEnd() && !b.atEnd(); ++a, ++b) {
        if (a.fragment().length() != b.fragment().length() || a.fragment().charFormat() != b.fragment().charFormat())
            return false;
    }
    return a.atEnd() && b.atEnd();
}

// Raw HTML is never read: whatever looks like a tag ("<module>", "list<int>", "a < b > c",
// "cat <<EOF", "<!--") is text. Qt's reader would take it as the start of HTML and drop everything
// after it up to a closing tag that never comes.
constexpr auto markdownFeatures =
    QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub | QTextDocument::MarkdownNoHTML);

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

const QString copyScheme = QStringLiteral("copy-code");
// A formula's token on its way through the Markdown: "sandpiper-math:d/<TeX, percent-encoded>"
// (d: display, i: inline). Whatever the model writes in that form is only ever drawn as math.
const QString mathScheme = QStringLiteral("sandpiper-math");
const QString loadImageScheme = QStringLiteral("load-image");
constexpr qsizetype maxRemoteImageBytes = 20 * 1024 * 1024;
// Images are shown at most 720 pixels wide: twice that keeps them sharp on a high-density screen.
constexpr int maxImageWidth = 1440;

QPointer<MathRenderer> &sharedMathRenderer()
{
    static QPointer<MathRenderer> renderer;
    return renderer;
}

} // namespace

void MarkdownView::setMathRenderer(MathRenderer *renderer)
{
    sharedMathRenderer() = renderer;
}

MarkdownView::MarkdownView(QWidget *parent)
    : QTextBrowser(parent)
{
    setOpenLinks(false);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setTextInteractionFlags(Qt::TextBrowserInteraction | Qt::TextSelectableByKeyboard);
    viewport()->setAutoFillBackground(false);
    // Growing at the bottom as an answer streams in paints only what is new.
    setAttribute(Qt::WA_StaticContents);
    viewport()->setAttribute(Qt::WA_StaticContents);
    document()->setDocumentMargin(2);
    connect(this, &QTextBrowser::anchorClicked, this, &MarkdownView::openLink);
    // A screen reader reads formulas as their TeX.
    MarkdownViewAccessible::install();
    MathRenderer *renderer = sharedMathRenderer();
    m_math = new MathObject(this, renderer);
    document()->documentLayout()->registerHandler(MathObject::objectType, m_math);
    if (renderer)
        connect(renderer, &MathRenderer::finished, this, &MarkdownView::formulaFinished);
    m_formulaLayout.setSingleShot(true);
    m_formulaLayout.setInterval(15);
    connect(&m_formulaLayout, &QTimer::timeout, this, [this] {
        document()->markContentsDirty(0, document()->characterCount());
        updateHeight();
        viewport()->update();
    });
}

void MarkdownView::setConversationFolder(const QString &folder)
{
    m_folder = folder;
}

void MarkdownView::setTextIsMarkdown(bool markdown)
{
    if (markdown == m_textIsMarkdown)
        return;
    m_textIsMarkdown = markdown;
    if (!m_markdown.isEmpty())
        render();
}

void MarkdownView::setMarkdownText(const QString &markdown)
{
    if (markdown == m_markdown && !document()->isEmpty())
        return;
    m_markdown = markdown;
    render();
}

void MarkdownView::setStreamingMarkdown(const QString &markdown)
{
    if (markdown == m_markdown && !document()->isEmpty())
        return;
    if (!m_textIsMarkdown || !markdown.startsWith(m_markdown.left(m_frozenLength))) {
        setMarkdownText(markdown);
        return;
    }
    m_markdown = markdown;
    // Paragraphs that are finished now are rendered once, and stay.
    const qsizetype boundary = lastParagraphBoundary(markdown, m_frozenLength);
    QTextDocument finished(this);
    int finishedFirst = 0;
    if (boundary > m_frozenLength)
        finishedFirst = renderChunk(markdown.mid(m_frozenLength, boundary - m_frozenLength), m_tailPosition == 0,
                                    finished, &m_frozenCodeBlocks, &m_frozenLanguages);
    m_frozenLength = boundary;
    QTextDocument tail(this);
    m_codeBlocks = m_frozenCodeBlocks;
    QStringList languages = m_frozenLanguages;
    const int tailFirst = renderChunk(markdown.mid(m_frozenLength), m_tailPosition == 0 && finished.isEmpty(), tail,
                                      &m_codeBlocks, &languages);
    showStreamed({finished, finishedFirst}, {tail, tailFirst});
    updateHeight();
}

QString MarkdownView::sandboxNameFor(const QString &target) const
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

QString MarkdownView::sandboxNameOf(const QUrl &url) const
{
    const QString prefix = QDir::cleanPath(m_folder) + QLatin1Char('/');
    const QString path = QDir::cleanPath(url.toLocalFile());
    if (m_folder.isEmpty() || !url.isLocalFile() || !path.startsWith(prefix))
        return {};
    return path.mid(prefix.size());
}

QString MarkdownView::preprocess(const QString &markdown, QStringList *codeBlocks, QStringList *languages) const
{
    static const QRegularExpression image(
        QStringLiteral("!\\[([^\\]\\n]*)\\]\\(<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\)"));
    QStringList out;
    QString fence;
    QString code;
    const QStringList lines = markdown.split(QLatin1Char('\n'));
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
                replacement = m_remoteImages.contains(url) ? match.captured(0)
                              : m_failedImages.contains(url)
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
        out << rewritten;
    }
    if (!fence.isEmpty())
        codeBlocks->append(code); // still streaming in
    return out.join(QLatin1Char('\n'));
}

void MarkdownView::render()
{
    QStringList languages;
    m_codeBlocks.clear();
    // A complete text is rendered in one go; if more streams in after it, the next chunk starts
    // from the beginning again, since where its last paragraph began is not known here.
    m_frozenLength = 0;
    m_tailPosition = 0;
    m_frozenCodeBlocks.clear();
    m_frozenLanguages.clear();
    m_formulas.clear();
    if (!m_textIsMarkdown) {
        document()->setPlainText(m_markdown);
        m_layoutWidth = -1;
        updateHeight();
        return;
    }
    const QString prepared = preprocess(markFormulas(m_markdown), &m_codeBlocks, &languages);
    for (auto it = m_remoteImages.cbegin(); it != m_remoteImages.cend(); ++it)
        document()->addResource(QTextDocument::ImageResource, it.key(), it.value());
    document()->setMarkdown(prepared, markdownFeatures);
    presentFormulas(document());
    decorateCodeBlocks(document(), languages);
    fitImages(document());
    m_layoutWidth = -1; // a new document is laid out anew
    updateHeight();
}

int MarkdownView::renderChunk(const QString &markdown, bool atStart, QTextDocument &chunk, QStringList *codeBlocks,
                              QStringList *languages)
{
    const qsizetype firstLanguage = languages->size();
    const QString prepared = preprocess(markFormulas(markdown), codeBlocks, languages);
    chunk.setDefaultFont(document()->defaultFont());
    for (auto it = m_remoteImages.cbegin(); it != m_remoteImages.cend(); ++it)
        chunk.addResource(QTextDocument::ImageResource, it.key(), it.value());
    // Qt formats a document's first block unlike the blocks after it: a paragraph of no meaning
    // goes first when the chunk is not shown first.
    chunk.setMarkdown(atStart ? prepared : QStringLiteral("x\n\n") + prepared, markdownFeatures);
    presentFormulas(&chunk);
    decorateCodeBlocks(&chunk, languages->mid(firstLanguage));
    fitImages(&chunk);
    return atStart ? 0 : 1;
}

void MarkdownView::showStreamed(const Chunk &finished, const Chunk &tail)
{
    // The blocks to show after m_tailPosition, in order, and how many of them the document
    // already shows there, the same (the paragraph just finished, the lines of code written).
    QList<QTextBlock> blocks;
    for (const Chunk &chunk : {finished, tail}) {
        for (QTextBlock block = chunk.document.findBlockByNumber(chunk.first); chunk.blocks() > 0 && block.isValid();
             block = block.next())
            blocks << block;
    }
    const int finishedBlocks = finished.blocks();
    const int start = m_tailPosition;
    QTextBlock shown = start > 0 ? document()->findBlock(start).next() : document()->begin();
    int kept = 0;
    int keptEnd = m_tailPosition; // where the blocks kept end
    if (!document()->isEmpty()) {
        for (; kept < blocks.size() && shown.isValid() && sameBlock(shown, blocks.at(kept)); ++kept) {
            keptEnd = shown.position() + shown.length() - 1;
            if (kept + 1 == finishedBlocks)
                m_tailPosition = keptEnd;
            shown = shown.next();
        }
    }
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    cursor.setPosition(keptEnd);
    // The block that stays takes the formats of the first one removed after it: it gets its own back.
    const QTextBlockFormat lastKeptFormat = cursor.blockFormat();
    const QTextCharFormat lastKeptCharFormat = cursor.blockCharFormat();
    cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    cursor.removeSelectedText();
    if (keptEnd > 0 && cursor.blockFormat() != lastKeptFormat)
        cursor.setBlockFormat(lastKeptFormat);
    if (keptEnd > 0 && cursor.blockCharFormat() != lastKeptCharFormat)
        cursor.setBlockCharFormat(lastKeptCharFormat);
    if (kept < finishedBlocks) {
        appendChunk(cursor, finished.document, finished.first + kept);
        m_tailPosition = document()->characterCount() - 1;
    }
    const int tailKept = std::max(0, kept - finishedBlocks);
    if (tailKept < tail.blocks())
        appendChunk(cursor, tail.document, tail.first + tailKept);
    // Qt gives a block inserted next to a table or into an empty block formats of its neighbours;
    // each block takes its own from the chunk again.
    shown = start > 0 ? document()->findBlock(start).next() : document()->begin();
    for (qsizetype i = 0; i < blocks.size() && shown.isValid(); ++i, shown = shown.next()) {
        const QTextBlock &rendered = blocks.at(i);
        if (i < kept || !isPlain(shown) || !isPlain(rendered))
            continue;
        cursor.setPosition(shown.position());
        if (shown.blockFormat() != rendered.blockFormat())
            cursor.setBlockFormat(rendered.blockFormat());
        if (shown.charFormat() != rendered.charFormat())
            cursor.setBlockCharFormat(rendered.charFormat());
    }
    cursor.endEditBlock();
}

void MarkdownView::appendChunk(QTextCursor &cursor, QTextDocument &chunk, int first)
{
    const QTextBlock from = chunk.findBlockByNumber(first);
    cursor.movePosition(QTextCursor::End);
    const bool ownBlock = cursor.position() > 0;
    // The chunk's first block keeps its format (a heading, a code block) in a block of its own.
    if (ownBlock)
        cursor.insertBlock(from.blockFormat(), from.charFormat());
    const int start = cursor.position();
    QTextCursor selection(&chunk);
    selection.setPosition(from.position());
    selection.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    cursor.insertFragment(QTextDocumentFragment(selection));
    // A chunk that begins with a list or a table gets a block of its own from Qt, which leaves
    // the one made above empty.
    const QTextBlock made = document()->findBlock(start);
    if (ownBlock && !isPlain(from) && made.length() == 1 && made.next().isValid()) {
        cursor.setPosition(made.position() - 1);
        cursor.setPosition(made.position(), QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    }
}

QString MarkdownView::markFormulas(const QString &markdown) const
{
    const QList<MathScanner::Formula> formulas = MathScanner::find(markdown);
    if (formulas.isEmpty())
        return markdown;
    QString marked;
    qsizetype at = 0;
    for (const MathScanner::Formula &formula : formulas) {
        marked += QStringView(markdown).sliced(at, formula.start - at);
        // Qt's Markdown reader leaves out images without an alternative text.
        marked += QStringLiteral("![TeX](%1:%2/%3)")
                      .arg(mathScheme, formula.display ? QStringLiteral("d") : QStringLiteral("i"),
                           QString::fromLatin1(QUrl::toPercentEncoding(formula.tex)));
        at = formula.start + formula.length;
    }
    return marked + QStringView(markdown).sliced(at);
}

void MarkdownView::presentFormulas(QTextDocument *document)
{
    const QString prefix = mathScheme + QLatin1Char(':');
    // One edit: the document is laid out once, not once per formula.
    QTextCursor cursor(document);
    cursor.beginEditBlock();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        bool displayOnly = false;
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            const QString name =
                fragment.charFormat().isImageFormat() ? fragment.charFormat().toImageFormat().name() : QString();
            if (!name.startsWith(prefix))
                continue;
            const bool display = name.mid(prefix.size(), 2) == QLatin1String("d/");
            const QString tex = QUrl::fromPercentEncoding(name.mid(prefix.size() + 2).toLatin1());
            m_formulas.insert(tex);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(MathObject::format(tex, display));
            displayOnly = display && block.text().trimmed().size() == fragment.length();
        }
        if (displayOnly) {
            // A formula on display stands centred in a paragraph of its own.
            QTextBlockFormat format = block.blockFormat();
            format.setAlignment(Qt::AlignHCenter);
            cursor.setPosition(block.position());
            cursor.setBlockFormat(format);
        }
    }
    cursor.endEditBlock();
}

void MarkdownView::formulaFinished(const QString &tex)
{
    if (m_formulas.contains(tex) && !m_formulaLayout.isActive())
        m_formulaLayout.start();
}

QTextFormat MarkdownView::formulaAt(const QPoint &point) const
{
    const QPointF position = point + QPointF(horizontalScrollBar()->value(), verticalScrollBar()->value());
    const int hit = document()->documentLayout()->hitTest(position, Qt::ExactHit);
    if (hit < 0)
        return {};
    // The hit is the position before or after the character under the point.
    for (const int candidate : {hit, hit - 1}) {
        const QTextBlock block = document()->findBlock(candidate);
        for (auto it = block.begin(); block.isValid() && !it.atEnd(); ++it) {
            if (it.fragment().contains(candidate) && MathObject::isFormula(it.fragment().charFormat()))
                return it.fragment().charFormat();
        }
    }
    return {};
}

bool MarkdownView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QTextFormat formula = formulaAt(help->pos());
        if (formula.isValid()) {
            QToolTip::showText(help->globalPos(), m_math->toolTip(formula), viewport());
            return true;
        }
    }
    return QTextBrowser::viewportEvent(event);
}

void MarkdownView::contextMenuEvent(QContextMenuEvent *event)
{
    std::unique_ptr<QMenu> menu(createStandardContextMenu(event->pos()));
    // Without scrolling (the view grows to fit), the event's position is the viewport's.
    const QTextFormat formula = formulaAt(event->pos());
    if (formula.isValid()) {
        const QString source = MathObject::source(formula);
        QAction *copy = new QAction(tr("Copy Formula as &TeX"), menu.get());
        connect(copy, &QAction::triggered, this, [source] { QApplication::clipboard()->setText(source); });
        menu->insertAction(menu->actions().value(0), copy);
        menu->insertSeparator(menu->actions().value(1));
    }
    menu->exec(event->globalPos());
}

QMimeData *MarkdownView::createMimeDataFromSelection() const
{
    const QTextCursor selection = textCursor();
    bool hasFormula = false;
    QString text =
        MathObject::readableText(document(), selection.selectionStart(), selection.selectionEnd(), &hasFormula);
    if (!hasFormula)
        return QTextBrowser::createMimeDataFromSelection();
    // A formula is its TeX: rich text would hold nothing where it stands.
    auto *data = new QMimeData;
    text.remove(QChar::ObjectReplacementCharacter);
    text.replace(QChar::LineSeparator, QLatin1Char('\n'));
    text.replace(QChar::Nbsp, QLatin1Char(' '));
    data->setText(text);
    return data;
}

void MarkdownView::decorateCodeBlocks(QTextDocument *document, const QStringList &languages) const
{
    const auto theme = Highlighting::themeFor(palette());
    const QColor background = palette().color(QPalette::AlternateBase);
    int index = -1;
    int first = -1;
    auto finishGroup = [&](int last) {
        if (first < 0)
            return;
        const QString language = index >= 0 && index < languages.size() ? languages.at(index) : QString();
        Highlighting::highlightBlocks(document, first, last, Highlighting::definitionForLanguage(language), theme,
                                      background);
        first = -1;
    };
    // The line above a code block, with its copy link, is set small (as <small> would).
    QTextCharFormat small;
    small.setProperty(QTextFormat::FontSizeAdjustment, -1);
    const QString copyPrefix = copyScheme + QLatin1Char(':');
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        const bool isCode = block.blockFormat().hasProperty(QTextFormat::BlockCodeFence);
        for (auto it = block.begin(); !isCode && !it.atEnd(); ++it) {
            if (it.fragment().charFormat().anchorHref().startsWith(copyPrefix)) {
                QTextCursor header(block);
                header.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
                header.mergeCharFormat(small);
                break;
            }
        }
        if (isCode && first < 0) {
            first = block.blockNumber();
            ++index;
        } else if (!isCode && first >= 0) {
            finishGroup(block.blockNumber() - 1);
        }
        if (isCode) {
            QTextBlockFormat format = block.blockFormat();
            format.setBackground(background);
            // A long line wraps: kept whole, it made the answer wider than the view, which
            // scrolled sideways to the line's end and hid everything else.
            format.setNonBreakableLines(false);
            QTextCursor(block).setBlockFormat(format);
        }
    }
    finishGroup(document->blockCount() - 1);
}

void MarkdownView::fitImages(QTextDocument *document)
{
    const int available = std::max(120, viewport()->width() - 12);
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().isImageFormat())
                continue;
            QTextImageFormat format = fragment.charFormat().toImageFormat();
            const QImage image = loadResource(QTextDocument::ImageResource, QUrl(format.name())).value<QImage>();
            if (image.isNull())
                continue;
            const int width = std::min(image.width(), std::min(available, 720));
            format.setWidth(width);
            format.setHeight(double(image.height()) * width / image.width());
            QTextCursor cursor(document);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(format);
        }
    }
}

QVariant MarkdownView::loadResource(int type, const QUrl &name)
{
    // Never an empty QVariant: QTextDocument would then read the file itself, and raw HTML in
    // the answer can name any file of this computer (<img src="/home/...">).
    if (type != QTextDocument::ImageResource)
        return QByteArray(); // style sheets and the like: nothing is loaded
    if (m_remoteImages.contains(name))
        return m_remoteImages.value(name);
    // Only the conversation's own images, checked now: the sandbox may have swapped in a link.
    const QString sandboxName = sandboxNameOf(name);
    QString error;
    const QImage image = sandboxName.isEmpty()
                             ? QImage()
                             : SandboxImage::load(SandboxFolder(m_folder), sandboxName, maxImageWidth, &error);
    if (!error.isEmpty())
        qCDebug(lcApp) << "image not shown:" << error;
    return image;
}

void MarkdownView::updateHeight()
{
    // Setting the width lays out the whole document again, even when it does not change.
    if (m_layoutWidth != viewport()->width()) {
        m_layoutWidth = viewport()->width();
        document()->setTextWidth(m_layoutWidth);
    }
    const int height = int(std::ceil(document()->size().height())) + frameWidth() * 2 + 2;
    if (height != this->height())
        setFixedHeight(height);
}

void MarkdownView::resizeEvent(QResizeEvent *event)
{
    QTextBrowser::resizeEvent(event);
    if (width() != m_lastWidth) {
        m_lastWidth = width();
        fitImages(document());
        updateHeight();
    }
}

void MarkdownView::changeEvent(QEvent *event)
{
    QTextBrowser::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !m_markdown.isEmpty())
        render();
}

QSize MarkdownView::sizeHint() const
{
    return {400, height()};
}

QSize MarkdownView::minimumSizeHint() const
{
    return {100, height()};
}

void MarkdownView::openLink(const QUrl &url)
{
    if (url.scheme() == copyScheme) {
        const int index = url.path().toInt();
        if (index >= 0 && index < m_codeBlocks.size()) {
            QApplication::clipboard()->setText(m_codeBlocks.at(index));
            Q_EMIT codeCopied(index);
        }
        return;
    }
    if (url.scheme() == loadImageScheme) {
        loadRemoteImage(QUrl::fromEncoded(QByteArray::fromPercentEncoding(url.path().toLatin1())));
        return;
    }
    if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https") ||
        url.scheme() == QLatin1String("mailto")) {
        QDesktopServices::openUrl(url);
        return;
    }
    // A file is opened only from the conversation's folder, and never run.
    const QString name = url.isLocalFile() ? sandboxNameOf(url) : sandboxNameFor(url.toString());
    if (!name.isEmpty())
        SandboxFileActions::open(this, SandboxFolder(m_folder), name);
    else if (url.isLocalFile())
        QToolTip::showText(QCursor::pos(), tr("Links to files outside this conversation's folder are not opened."),
                           this);
}

void MarkdownView::loadRemoteImage(const QUrl &url)
{
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return;
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    QNetworkRequest request(url);
    request.setTransferTimeout(30000);
    QNetworkReply *reply = m_network->get(request);
    connect(reply, &QNetworkReply::finished, this, [this, reply, url] {
        reply->deleteLater();
        const QByteArray bytes = reply->read(maxRemoteImageBytes);
        QImage image;
        if (reply->error() == QNetworkReply::NoError && image.loadFromData(bytes))
            m_remoteImages.insert(url, image);
        else
            m_failedImages.insert(url);
        render();
    });
}

} // namespace Sandpiper
