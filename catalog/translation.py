from modeltranslation.translator import TranslationOptions, register

from catalog.models import Category, Product


@register(Product)
class ProductTranslation(TranslationOptions):
    fields = ("title", "short_description", "description", "brewing_instructions")


@register(Category)
class CategoryTranslation(TranslationOptions):
    fields = ("name",)
