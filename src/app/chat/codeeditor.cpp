#include "chat/codeeditor.h"

#include "chat/highlighting.h"

#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

#include <QFontDatabase>
#include <QPainter>
#include <QTextBlock>

namespace Sandpiper {

namespace {

class LineNumberArea : public QWidget
{
public:
    explicit LineNumberArea(CodeEditor *editor)
        : QWidget(editor)
        , m_editor(editor)
    {}
    QSize sizeHint() const override { return {m_editor->lineNumberAreaWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintLineNumbers(event); }

private:
    CodeEditor *m_editor;
};

// The theme's colours made readable on the editor's background (see Highlighting::charFormat).
class ReadableHighlighter : public KSyntaxHighlighting::SyntaxHighlighter
{
public:
    explicit ReadableHighlighter(CodeEditor *editor)
        : SyntaxHighlighter(editor->document())
        , m_editor(editor)
    {}

protected:
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format &format) override
    {
        if (length > 0)
            setFormat(offset, length,
                      Highlighting::charFormat(format, theme(), m_editor->palette().color(QPalette::Base)));
    }

private:
    CodeEditor *m_editor;
};

} // namespace

CodeEditor::CodeEditor(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_lineNumbers(new LineNumberArea(this))
    , m_highlighter(new ReadableHighlighter(this))
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabChangesFocus(true);
    setLanguage(QStringLiteral("Python"));
    applyTheme();
    connect(this, &QPlainTextEdit::blockCountChanged, this, &CodeEditor::updateMargins);
    // A line that grows long enough to wrap takes a line more without a new block.
    connect(document(), &QTextDocument::contentsChanged, this, &CodeEditor::updateAutoHeight);
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (dy)
            m_lineNumbers->scroll(0, dy);
        else
            m_lineNumbers->update(0, rect.y(), m_lineNumbers->width(), rect.height());
    });
    updateMargins();
}

void CodeEditor::setLanguage(const QString &language)
{
    m_highlighter->setDefinition(Highlighting::definitionForLanguage(language));
}

void CodeEditor::setAutoHeight(int maxLines)
{
    m_maxLines = maxLines;
    // A box that fits its code wraps long lines: a scroll bar across it would hide its last line.
    setLineWrapMode(maxLines > 0 ? QPlainTextEdit::WidgetWidth : QPlainTextEdit::NoWrap);
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    updateAutoHeight();
}

void CodeEditor::updateAutoHeight()
{
    if (m_maxLines <= 0)
        return;
    // The lines as laid out at the box's width (a wrapped line counts as often as it wraps), up to
    // the most shown at once; past that the box scrolls.
    const qreal most = m_maxLines * fontMetrics().lineSpacing();
    qreal lines = 0;
    for (QTextBlock block = document()->begin(); block.isValid() && lines <= most; block = block.next())
        lines += blockBoundingRect(block).height();
    const int height =
        int(std::ceil(std::clamp<qreal>(lines, fontMetrics().lineSpacing(), most) + 2 * document()->documentMargin())) +
        2 * frameWidth() + 1;
    if (height != this->height())
        setFixedHeight(height);
}

void CodeEditor::applyTheme()
{
    const auto theme = Highlighting::themeFor(palette());
    m_highlighter->setTheme(theme);
    m_highlighter->rehighlight();
}

void CodeEditor::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        updateAutoHeight();
}

int CodeEditor::lineNumberAreaWidth() const
{
    const int digits = QString::number(std::max(1, blockCount())).size();
    return 8 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

void CodeEditor::updateMargins()
{
    setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
}

void CodeEditor::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect area = contentsRect();
    m_lineNumbers->setGeometry(area.left(), area.top(), lineNumberAreaWidth(), area.height());
    // Lines wrap at the new width.
    if (event->size().width() != event->oldSize().width())
        updateAutoHeight();
}

void CodeEditor::paintLineNumbers(QPaintEvent *event)
{
    QPainter painter(m_lineNumbers);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    painter.setPen(palette().color(QPalette::PlaceholderText));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int bottom = top + qRound(blockBoundingRect(block).height());
        if (block.isVisible() && bottom >= event->rect().top())
            painter.drawText(0, top, m_lineNumbers->width() - 4, fontMetrics().height(), Qt::AlignRight,
                             QString::number(block.blockNumber() + 1));
        block = block.next();
        top = bottom;
    }
}

} // namespace Sandpiper
