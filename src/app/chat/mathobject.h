#pragma once

#include <math/mathrenderer.h>

#include <QObject>
#include <QPointer>
#include <QTextFormat>
#include <QTextObjectInterface>

class QWidget;

namespace Sandpiper {

// Draws the formulas of a text view. A formula is one object character whose format holds its
// TeX: once MathRenderer has drawn it, it shows as math in the text's colour, on the text's
// baseline and at its size; until then, and when it cannot be drawn, as its TeX in a code box
// (asking the renderer for it when it is first painted, so that only formulas on screen are
// drawn).
class MathObject : public QObject, public QTextObjectInterface
{
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)

public:
    static constexpr int objectType = QTextFormat::UserObject + 1;

    // VIEW gives the colours and the font size.
    explicit MathObject(QWidget *view, MathRenderer *renderer);

    // The format of a formula character.
    static QTextCharFormat format(const QString &tex, bool display);
    static bool isFormula(const QTextFormat &format);
    static QString tex(const QTextFormat &format);
    static bool isDisplay(const QTextFormat &format);
    // The formula as it is written in Markdown: $…$ or $$…$$.
    static QString source(const QTextFormat &format);
    // DOCUMENT from position START to END as it is read and copied: each formula as its source,
    // the end of a block as a line break. HASFORMULA, when given, is set if it holds a formula.
    static QString readableText(const QTextDocument *document, int start, int end, bool *hasFormula = nullptr);

    // What the renderer knows of the formula now.
    MathRenderer::Formula formula(const QTextFormat &format) const;
    // What hovering the formula says: its TeX, or why it is not drawn.
    QString toolTip(const QTextFormat &format) const;

    QSizeF intrinsicSize(QTextDocument *document, int position, const QTextFormat &format) override;
    void drawObject(QPainter *painter, const QRectF &rect, QTextDocument *document, int position,
                    const QTextFormat &format) override;

private:
    struct Box {
        QSizeF size;
        qreal top = 0; // where the content begins, so that its baseline meets the text's
    };
    // Points to pixels for a formula, at the size of the document's text.
    qreal scale(const QTextDocument *document, bool display) const;
    Box drawnBox(const MathRenderer::Formula &formula, qreal scale, const QTextFormat &format) const;
    Box codeBox(const QTextDocument *document, const QTextFormat &format, QSizeF *textSize = nullptr) const;
    QImage image(const QString &tex, const MathRenderer::Formula &formula, QSize pixels, qreal ratio) const;

    QWidget *m_view;
    QPointer<MathRenderer> m_renderer;
};

} // namespace Sandpiper
