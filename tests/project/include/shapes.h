#ifndef SHAPES_H
#define SHAPES_H

struct rect {
    int w, h;
};

int rect_semi_perimeter(const struct rect *r);

#endif
